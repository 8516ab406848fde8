from emit import emit
F = [
    ("multiline", (39, 250, 425, 308), "1. To (name and address of employer)"),
    ("multiline", (429, 250, 818, 308), "2. From (name and address of lender)"),
    ("signature", (39, 338, 321, 378), "3. Signature of lender"),
    ("text", (325, 338, 545, 378), "4. Title"),
    ("date", (550, 338, 650, 378), "5. Date"),
    ("text", (654, 350, 818, 378), "6. Lender's number"),
    ("multiline", (39, 407, 511, 447), "7. Name and address of applicant"),
    ("signature", (515, 407, 818, 447), "8. Signature of applicant"),
    ("date", (39, 478, 235, 517), "9. Applicant's date of employment"),
    ("text", (238, 478, 564, 517), "10. Present position"),
    ("text", (567, 478, 818, 517), "11. Probability of continued employment"),
    ("checkbox", (142, 539, 150, 547), "12A Annual"),
    ("checkbox", (228, 539, 236, 547), "12A Hourly"),
    ("checkbox", (142, 556, 150, 565), "12A Monthly"),
    ("checkbox", (228, 555, 236, 565), "12A Other (specify)"),
    ("checkbox", (142, 574, 150, 582), "12A Weekly"),
    ("text", (50, 566, 108, 580), "12A amount ($ ____ line)"),
    ("text", (158, 622, 210, 636), "12B 'Thru ____' year (line)"),
]
cols = [(117, 209, "year to date"), (211, 304, "past year"), (307, 399, "past year (2)")]
rows = [(623, 656, "base pay"), (658, 691, "overtime"), (693, 725, "commissions"), (727, 760, "bonus"), (762, 795, "total")]
for y0, y1, r in rows:
    for x0, x1, c in cols:
        F.append(("text", (x0, y0, x1, y1), f"12B {r}, {c} (cell)"))
F.append(("text", (496, 536, 607, 552), "13 pay grade"))
for y0, y1, r in [(571, 604, "base pay"), (606, 621, "rations"), (623, 656, "flight or hazard"), (658, 674, "clothing"),
                  (675, 708, "quarters"), (710, 726, "pro pay"), (727, 760, "overseas or combat"), (762, 795, "variable housing allowance")]:
    F.append(("text", (496, y0, 607, y1), f"13 {r}, monthly amount (cell)"))
F += [
    ("checkbox", (713, 555, 722, 565), "14 overtime yes"),
    ("checkbox", (766, 555, 775, 565), "14 overtime no"),
    ("checkbox", (713, 568, 722, 578), "14 bonus yes"),
    ("checkbox", (766, 568, 775, 577), "14 bonus no"),
    ("text", (640, 604, 818, 621), "15 average hours per week"),
    ("date", (610, 640, 818, 673), "16 date of next pay increase"),
    ("text", (610, 690, 818, 708), "17 projected amount of next increase"),
    ("date", (610, 727, 818, 743), "18 date of last pay increase"),
    ("text", (610, 760, 818, 795), "19 amount of last pay increase"),
    ("multiline", (39, 812, 818, 863), "20 remarks"),
    ("date", (115, 884, 243, 899), "21 date hired"),
    ("date", (128, 901, 243, 916), "22 date terminated"),
    ("text", (295, 896, 380, 911), "23 base (line)"),
    ("text", (430, 896, 514, 911), "23 overtime (line)"),
    ("text", (583, 896, 668, 911), "23 commissions (line)"),
    ("text", (706, 896, 790, 911), "23 bonus (line)"),
    ("text", (39, 928, 425, 951), "24 reason for leaving"),
    ("text", (429, 928, 818, 951), "25 position held"),
    ("signature", (39, 1012, 356, 1050), "26 signature of employer"),
    ("text", (359, 1012, 676, 1050), "27 title"),
    ("date", (680, 1025, 818, 1085), "28 date"),
    ("text", (39, 1060, 356, 1085), "29 printed name"),
    ("text", (359, 1060, 676, 1085), "30 phone no."),
]
emit("form-verification-of-employment", "images/form-verification-of-employment.png", 885, 1146, 885, 1146, F,
     "Scanned US Form 1005, typed and signed: ruled cells with the question printed at the top (the answer area is the cell below it), two ruled tables, nine faint tick boxes about 8 px across, a few short answer lines.")
