# Xodd regression (GNU Go / gogui-regress style). A numbered command is
# checked by the #? line after it: [a|b] = the answer is one of these,
# [!a] = anything but a, [?message] = a failure with this message,
# [] = an empty success.
1 oddity-game xodd 3
#? []
2 play b pass
#? [?illegal move]
3 play b B:A1,B:C3
#? [?illegal move]
4 play b B:B2
#? []
# White alone on A1 would make the total even.
5 play w W:A1
#? [?illegal move]
6 play w B:B2
#? [?illegal move]
7 play w B:B1
#? []
8 final_score
#? [?cannot score]
9 play b pass
#? []
10 play w pass
#? []
11 final_score
#? [W+1]
12 oddity-result
#? [over w groups W+1]
13 genmove b
#? [?game is over]
14 undo
#? []
15 genmove w
#? [!resign]
16 clear_board
#? []
17 play b W:B2
#? []
18 play w B:A1,B:C3
#? []
19 oddity-legal_moves
#? [!]
20 play b B:A1
#? [?illegal move]
