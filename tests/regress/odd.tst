# Odd regression: see xodd.tst for the format.
1 oddity-game odd 2
#? []
# Well-formed tokens that Odd forbids are illegal moves, not syntax errors.
2 play b pass
#? [?illegal move]
3 play b B:A1,B:B1
#? [?illegal move]
4 play b B:A1
#? []
5 play w B:A1
#? [?illegal move]
6 play w B:B1
#? []
7 play b B:A2
#? []
8 play w B:B2
#? []
9 play b B:C2
#? []
10 play w B:B3
#? []
11 final_score
#? [?cannot score]
12 play b B:C3
#? []
13 final_score
#? [B+]
# With groups of one stone counting, White wins the last cell with W.
14 oddity-rules min_group 1
#? []
15 clear_board
#? []
16 oddity-set_position w B:A1 B:B1 B:A2 B:B2 B:C2 B:B3
#? []
17 genmove w
#? [W:C3]
18 final_score
#? [W+]
