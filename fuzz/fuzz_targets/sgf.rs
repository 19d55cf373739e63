//! The SGF reader on any bytes: it never panics or overflows the stack,
//! a refusal says why on one line (outside input escaped), and what it
//! accepts is a game tree that, written and read again, is the same tree,
//! variations and names included, written the same way; its main line is
//! what the plain reader reads. The lenient reader reads what the strict
//! one reads the same, with nothing cut; where the strict one refuses, it
//! refuses the same or keeps a tree that the strict reader accepts once
//! written, with each cut said on one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity_rules::{
    GameTree,
    internals::is_one_line,
    sgf::{RecordInfo, read, read_tree, read_tree_lenient, write_tree},
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
    let lenient = read_tree_lenient(&text);
    let tree = match read_tree(&text) {
        Ok(tree) => tree,
        Err(e) => {
            assert!(is_one_line(&e.to_string()), "{e:?}");
            assert!(read(&text).is_err());
            match lenient {
                Err(again) => assert_eq!(again, e),
                Ok((kept, cuts)) => {
                    assert!(!cuts.is_empty(), "{e}");
                    for cut in &cuts {
                        assert!(is_one_line(&cut.to_string()), "{cut:?}");
                    }
                    let written = text_of(&kept);
                    let again = read_tree(&written)
                        .unwrap_or_else(|e| panic!("a kept tree is refused: {e}\n{written}"));
                    assert_eq!(shape(&again), shape(&kept), "{written}");
                }
            }
            return;
        }
    };
    match lenient {
        Ok((same, cuts)) => {
            assert!(cuts.is_empty(), "{cuts:?}");
            assert_eq!(shape(&same), shape(&tree));
        }
        Err(e) => panic!("the lenient reader refuses what the strict one reads: {e}"),
    }
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
