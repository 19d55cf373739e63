//! The SGF reader on any bytes: it never panics or overflows the stack,
//! a refusal says why on one line (outside input escaped), and what it
//! accepts is a game tree that, written and read again, is the same tree,
//! variations and names included, written the same way; its main line is
//! what the plain reader reads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity_rules::{
    GameTree,
    internals::is_one_line,
    sgf::{RecordInfo, read, read_tree, write_tree},
};

fn text_of(tree: &GameTree) -> String {
    write_tree(tree, &RecordInfo::default())
}

/// Every node in SGF order: its depth, turn and name.
fn shape(tree: &GameTree) -> Vec<(usize, Option<String>, Option<String>)> {
    tree.preorder()
        .into_iter()
        .map(|id| {
            let turn = tree
                .turn(id)
                .map(|(seat, t)| format!("{}[{}]", seat.letter(), tree.start().token(&t)));
            (tree.depth(id), turn, tree.name(id).map(str::to_string))
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let tree = match read_tree(&text) {
        Ok(tree) => tree,
        Err(e) => {
            assert!(is_one_line(&e.to_string()), "{e:?}");
            assert!(read(&text).is_err());
            return;
        }
    };
    let written = text_of(&tree);
    let again = match read_tree(&written) {
        Ok(t) => t,
        Err(e) => panic!("a written tree is refused: {e}\n{written}"),
    };
    assert_eq!(shape(&again), shape(&tree), "{written}");
    assert_eq!(text_of(&again), written);
    let main = tree.record(*tree.main_line().last().expect("the root"));
    let plain = read(&text).expect("the main line of a tree read");
    assert_eq!(plain.moves(), main.moves(), "{written}");
    assert_eq!(plain.outcome(), main.outcome(), "{written}");
});
