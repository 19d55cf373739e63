//! The value network file (`--param net=FILE`, `oddity train-value`) on
//! any bytes: the reader never panics, and a network it accepts is written
//! and read again exactly, and written again the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity_patterns::ValueNet;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(net) = ValueNet::parse(&text) else {
        return;
    };
    assert_eq!(net.w1.len(), net.inputs() * net.hidden);
    let written = net.to_text(&[]);
    let again = match ValueNet::parse(&written) {
        Ok(n) => n,
        Err(e) => panic!("a written network is refused: {e}\n{written}"),
    };
    assert_eq!(again, net, "{written}");
    assert_eq!(again.to_text(&[]), written);
});
