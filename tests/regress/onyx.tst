# Onyx regression: see xodd.tst for the format. The swap turns Black's D5
# into a white stone on E4 (the transpose).
1 oddity-game onyx 12
#? []
2 play b A6
#? [?illegal move]
3 play b pass
#? [?illegal move]
4 play b D5
#? []
5 play w swap
#? []
6 play b E5
#? []
7 play w EF45
#? [?illegal move]
8 play w F6
#? []
9 play b W:G7
#? [?illegal move]
10 play b B:G7
#? []
# The GoGui ruler commands exist in GoGui mode (--gogui) only.
11 gogui-rules_side_to_move
#? [?unknown command]
12 final_score
#? [?cannot score]
13 genmove w
#? [!pass]
