// Drives oddity with @sabaki/gtp (an independent GTP controller): a full
// game of each kind by genmove, and an lz-analyze stream stopped by an empty
// line. Usage: node sabaki_drive.js ODDITY_BINARY NODE_MODULES_DIR
// Prints "OK ..." lines; exits 1 on any failure.
const path = require('path')
const {Controller} = require(path.join(process.argv[3], '@sabaki/gtp'))

const bin = process.argv[2]
const fast = ['--threads', '1', '--visits', '64', '--time', '0', '--seed', '3']

function fail(msg) {
  console.log('FAIL ' + msg)
  process.exit(1)
}

setTimeout(() => fail('timed out'), 240000).unref()

async function send(c, name, args = []) {
  let r = await c.sendCommand({name, args})
  return r
}

async function ok(c, name, args = []) {
  let r = await send(c, name, args)
  if (r.error) fail(`${name} ${args.join(' ')}: ${r.content}`)
  return r.content
}

async function fullGame(game, size) {
  let c = new Controller(bin, ['--game', game, '--size', size, ...fast])
  c.start()
  if ((await ok(c, 'protocol_version')) !== '2') fail('protocol_version')
  let seats = ['b', 'w']
  let turns = 0
  while ((await ok(c, 'oddity-result')) === 'running') {
    let move = await ok(c, 'genmove', [seats[turns % 2]])
    if (!/^(pass|swap|resign|[BW]:[A-Z]+[0-9]+(,[BW]:[A-Z]+[0-9]+)?|[A-Z]+[0-9]+)$/.test(move))
      fail(`${game}: odd move token ${move}`)
    turns++
    if (turns > 500) fail(`${game}: no end after 500 turns`)
  }
  let score = await ok(c, 'final_score')
  if (!/^[BW]\+(R|[0-9]*)$/.test(score)) fail(`${game}: final_score ${score}`)
  let board = await ok(c, 'showboard')
  if (!board.includes('Game over')) fail(`${game}: showboard says no end`)
  let sgf = await ok(c, 'printsgf')
  if (!sgf.startsWith('(;FF[4]GM[9000]')) fail(`${game}: printsgf`)
  await c.stop()
  console.log(`OK ${game} ${size}: ${turns} turns, ${score}`)
}

async function analysis() {
  let c = new Controller(bin, ['--game', 'odd', '--threads', '1'])
  c.start()
  let infos = 0
  let stopped = false
  let r = await c.sendCommand({name: 'lz-analyze', args: ['b', '5']}, ({line}) => {
    if (line.startsWith('info move ')) {
      infos++
      if (!/ visits [0-9]+ winrate [0-9]+ /.test(line)) fail('info line: ' + line)
      if (!stopped) {
        stopped = true
        c.process.stdin.write('\n')
      }
    }
  })
  if (r.error) fail('lz-analyze: ' + r.content)
  if (infos < 1) fail('no info lines')
  if ((await ok(c, 'name')) !== 'oddity') fail('name after analysis')
  await c.stop()
  console.log(`OK lz-analyze stream stopped by an empty line after ${infos} info lines`)
}

;(async () => {
  await fullGame('xodd', '4')
  await fullGame('yodd', '3')
  await fullGame('odd', '3')
  await fullGame('onyx', '8')
  await analysis()
  process.exit(0)
})().catch(e => fail(String(e)))
