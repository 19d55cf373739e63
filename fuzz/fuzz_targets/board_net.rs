//! The board network file (`--param board_net=FILE`, `oddity train-net`)
//! on any bytes: the reader never panics, and a network it accepts is
//! written and read again exactly, and written again the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity_patterns::BoardNet;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(net) = BoardNet::parse(&text) else {
        return;
    };
    let written = net.to_text(&[]);
    let again = match BoardNet::parse(&written) {
        Ok(n) => n,
        Err(e) => panic!("a written network is refused: {e}\n{written}"),
    };
    assert_eq!(again, net, "{written}");
    assert_eq!(again.to_text(&[]), written);
});
