//! The SGF reader on any bytes: it never panics or overflows the stack,
//! and what it accepts is a game that, written and read again, is the same
//! game written the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity_rules::record::GameRecord;
use oddity_rules::sgf::{RecordInfo, read, write};

fn text_of(record: &GameRecord) -> String {
    write(record, &RecordInfo::default())
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = read(&text) else {
        return;
    };
    let written = text_of(&record);
    let again = match read(&written) {
        Ok(r) => r,
        Err(e) => panic!("a written record is refused: {e}\n{written}"),
    };
    assert_eq!(again.moves(), record.moves(), "{written}");
    assert_eq!(again.outcome(), record.outcome(), "{written}");
    assert_eq!(text_of(&again), written);
});
