#!/usr/bin/env bash
# The cluster path of docs/balance.md and docs/match.md, tried for real on
# this one machine: a balance cell spread over a Slurm array job and over
# GNU parallel, one array task requeued while it plays, the shards merged by
# `oddity balance --merge`, and the merged games checked against the same
# cell played in one process with the same seeds (game for game: the same
# ids, turns and winners, none lost, none twice).
#
#   tests/peers/cluster.sh [ODDITY]
#
# ODDITY defaults to target/debug/oddity (built if missing). Needs root
# (slurmd runs as root) and Debian's slurm-wlm, parallel, openssh-server and
# rsync (`apt-get install slurm-wlm parallel openssh-server rsync`).
# slurmctld, slurmd and an sshd for GNU parallel's remote host (this machine,
# by ssh) are started with configurations of their own in a temporary
# folder (no munge: auth/none), on ports of their own, and stopped at the
# end. Takes a few minutes on 2 cores. Not part of tests/run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
oddity=${1:-$root/target/debug/oddity}
if [ ! -x "$oddity" ]; then cargo build; fi
for tool in slurmctld slurmd sbatch squeue scontrol sinfo parallel /usr/sbin/sshd rsync python3; do
    command -v "$tool" > /dev/null || {
        echo "cluster.sh: $tool is missing: apt-get install slurm-wlm parallel openssh-server rsync" >&2
        exit 2
    }
done
[ "$(id -u)" = 0 ] || { echo "cluster.sh: slurmd must run as root" >&2; exit 2; }

work=$(mktemp -d /tmp/oddity-cluster.XXXXXX)
daemons=()
stop_daemons() {
    for pid in "${daemons[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${daemons[@]}"; do wait "$pid" 2> /dev/null || true; done
}
passed=no
finish() {
    stop_daemons
    if [ "$passed" = yes ]; then rm -rf "$work"; else echo "cluster.sh: files kept in $work" >&2; fi
}
trap finish EXIT
mkdir -p "$work/bin" "$work/state" "$work/spool" "$work/slurm" "$work/parallel" "$work/one" \
    "$work/remote"
# The documented commands call `oddity`.
ln -s "$oddity" "$work/bin/oddity"
export PATH="$work/bin:$PATH"

# Waits up to $1 seconds for the command that follows to succeed.
wait_for() {
    local limit=$1 start=$SECONDS
    shift
    until "$@"; do
        if (( SECONDS - start > limit )); then
            echo "cluster.sh: gave up waiting for: $*" >&2
            return 1
        fi
        sleep 0.2
    done
}

# The small study: one cell of 16 games (fewer than the rule's 20, so that
# the one-process run plays them all, as the shards do), in 4 shards. The
# engine is limited by visits, so that the same seeds give the same games.
cell=(--game odd --size 4 --min-group 4 --st 10 --max-games 16
      --engine "oddity gtp --threads 1 --visits 4000")
shards=4

echo "== one process"
(cd "$work/one" && oddity balance "${cell[@]}" --results odd4.jsonl --quiet)

echo "== Slurm: slurmctld and slurmd on $(hostname -s)"
host=$(hostname -s)
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" << EOF
ClusterName=oddity-test
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/none
CredType=cred/none
SlurmUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MinJobAge=3600
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i > "$work/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D > "$work/slurmd.out" 2>&1 &
daemons+=($!)
node_idle() { [ "$(sinfo -h -n "$host" -o %t 2> /dev/null)" = idle ]; }
wait_for 60 node_idle

# The array job of docs/balance.md ("Several machines"), with the study's
# cell.
script=$work/slurm/odd4.sbatch
{
    echo '#!/bin/bash'
    echo "#SBATCH --array=1-$shards"
    echo '#SBATCH --cpus-per-task=1'
    printf 'oddity balance'
    printf ' %q' "${cell[@]}"
    echo " --shard \${SLURM_ARRAY_TASK_ID}/$shards \\"
    echo '  --results odd4-${SLURM_ARRAY_TASK_ID}.jsonl --quiet'
} > "$script"
job=$(sbatch --parsable --chdir="$work/slurm" --output="$work/slurm/task-%a.out" "$script")
echo "array job $job submitted"

# Task 1, once it has kept a game and before it has played its last, is
# requeued: Slurm kills it and starts it again, and the run resumes.
first=$work/slurm/odd4-1.jsonl
games_of() { if [ -f "$1" ]; then grep -c . "$1" || true; else echo 0; fi; }
midway() {
    local n
    n=$(games_of "$first")
    [ "$n" -ge 1 ] && [ "$n" -lt $((16 / shards)) ] \
        && [ "$(squeue -h -j "${job}_1" -o %T 2> /dev/null)" = RUNNING ]
}
wait_for 300 midway
echo "task 1 requeued after $(games_of "$first") of its $((16 / shards)) games"
scontrol requeue "${job}_1"
# Slurm makes a requeued job eligible two minutes later; start it now.
held() { squeue -h -j "${job}_1" -o %T 2> /dev/null | grep -q PENDING; }
wait_for 60 held
scontrol update JobId="${job}_1" StartTime=now 2> /dev/null || true
done_all() { [ -z "$(squeue -h -j "$job" 2> /dev/null)" ]; }
wait_for 600 done_all
restarts=$(scontrol show job "${job}_1" | grep -o 'Restarts=[0-9]*' | head -n 1)
[ "$restarts" = Restarts=1 ] || { echo "cluster.sh: task 1 was not requeued ($restarts)" >&2; exit 1; }
(cd "$work/slurm" && oddity balance --merge odd4-*.jsonl --results odd4.jsonl)

echo "== GNU parallel, to this machine by ssh"
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/key"
cp "$work/key.pub" "$work/authorized_keys"
cat > "$work/sshd_config" << EOF
Port 16822
ListenAddress 127.0.0.1
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PidFile $work/sshd.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
StrictModes no
UsePAM no
SetEnv PATH=$PATH
EOF
mkdir -p /run/sshd
/usr/sbin/sshd -D -e -f "$work/sshd_config" > "$work/sshd.out" 2>&1 &
daemons+=($!)
export PARALLEL_SSH="ssh -p 16822 -i $work/key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
ssh_up() { $PARALLEL_SSH root@127.0.0.1 true 2> /dev/null; }
wait_for 30 ssh_up
echo "root@127.0.0.1" > "$work/parallel/hosts.txt"
(
    cd "$work/parallel"
    # The command of docs/balance.md ("Several machines"), with the study's
    # cell: played in the remote folder, the shards returned here.
    parallel --sshloginfile hosts.txt --workdir "$work/remote" --return odd4-{}.jsonl \
        "oddity balance $(printf '%q ' "${cell[@]}") --shard {}/$shards --results odd4-{}.jsonl --quiet" \
        ::: $(seq 1 $shards)
    oddity balance --merge odd4-*.jsonl --results odd4.jsonl
)

echo "== the merged games against the one-process run"
python3 - "$work/one/odd4.jsonl" "$work/slurm/odd4.jsonl" "$work/parallel/odd4.jsonl" \
    "$work/slurm" "$work/parallel" << 'EOF'
import glob, json, sys

def games(path):
    return [json.loads(line) for line in open(path) if line.strip()]

def key(g):
    return (g["id"], g["winner_seat"], g["reason"], tuple(g["turns"]))

one = sorted(key(g) for g in games(sys.argv[1]))
assert len(one) == 16, f"the one-process run played {len(one)} games"
for merged, shards in [(sys.argv[2], sys.argv[4]), (sys.argv[3], sys.argv[5])]:
    got = sorted(key(g) for g in games(merged))
    assert got == one, f"{merged} differs from the one-process run"
    # Every shard file holds each of its games once: nothing repeated.
    ids = [g["id"] for f in sorted(glob.glob(shards + "/odd4-*.jsonl")) for g in games(f)]
    assert len(ids) == len(set(ids)) == 16, f"{shards}: {len(ids)} games, {len(set(ids))} ids"
    # Each game names the build and the command that played it.
    for g in games(merged):
        assert g.get("black_build", "").startswith("oddity "), g
        assert "--shard" in g.get("command", ""), g
print("the merged games of both paths are the one-process run's, game for game")
EOF
passed=yes
