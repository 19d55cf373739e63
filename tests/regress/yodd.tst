# Yodd regression: see xodd.tst for the format.
1 oddity-game yodd 2
#? []
2 play b B:B2
#? []
# A1 touches B2 on the hex board: one group, total stays odd.
3 play w B:A1
#? []
4 play w W:C3
#? [?illegal move]
# C3 joins the black group, A2 adds a white one: even.
5 play b W:A2,B:C3
#? [?illegal move]
6 play b W:A2
#? [?illegal move]
7 play b W:A2,W:C3
#? []
8 play w pass
#? []
9 play b pass
#? []
10 final_score
#? [B+1]
11 oddity-result
#? [!running]
12 boardsize 13
#? [?unacceptable size]
13 boardsize 3
#? []
14 genmove b
#? [!pass]
