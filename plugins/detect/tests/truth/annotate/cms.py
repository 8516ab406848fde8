from emit import emit
T, C, D, M, S = "text", "checkbox", "date", "multiline", "signature"
F = [
    (M, (1330, 90, 2400, 280), "carrier name and address (unruled, top right)"),
    (T, (84, 358, 166, 403), "PICA code boxes, left"),
    (T, (2368, 360, 2454, 403), "PICA code boxes, right"),
]
for x0, x1, what in [(84, 130, "Medicare"), (286, 332, "Medicaid"), (497, 543, "Tricare"), (769, 813, "Champva"),
                     (978, 1022, "Group health plan"), (1218, 1262, "FECA"), (1399, 1443, "Other")]:
    F.append((C, (x0, 447, x1, 494), f"1 {what}"))
F += [
    (T, (1546, 440, 2454, 503), "1a insured's ID number"),
    (T, (82, 535, 941, 597), "2 patient's name"),
    (D, (945, 535, 1290, 597), "3 patient's birth date"),
    (C, (1308, 546, 1355, 597), "3 sex M (open box)"),
    (C, (1457, 548, 1505, 597), "3 sex F (open box)"),
    (T, (1546, 535, 2454, 597), "4 insured's name"),
    (T, (82, 630, 941, 698), "5 patient's address"),
    (C, (1038, 649, 1085, 697), "6 self"), (C, (1189, 649, 1236, 697), "6 spouse"),
    (C, (1308, 651, 1353, 697), "6 child"), (C, (1459, 647, 1504, 695), "6 other"),
    (T, (1546, 630, 2454, 699), "7 insured's address"),
    (T, (82, 730, 830, 796), "5 city"), (T, (833, 730, 941, 796), "5 state"),
    (T, (944, 730, 1543, 901), "8 reserved for NUCC use"),
    (T, (1546, 730, 2257, 800), "7 city"), (T, (2260, 730, 2454, 800), "7 state"),
    (T, (82, 830, 470, 902), "5 zip code"), (T, (473, 830, 941, 902), "5 telephone"),
    (T, (1546, 830, 1931, 901), "7 zip code"), (T, (1934, 830, 2454, 901), "7 telephone"),
    (T, (82, 930, 941, 997), "9 other insured's name"),
    (T, (1546, 930, 2454, 1001), "11 insured's policy group or FECA number"),
    (T, (82, 1030, 941, 1093), "9a other insured's policy or group number"),
    (C, (1101, 1049, 1146, 1098), "10a employment yes"), (C, (1280, 1049, 1325, 1096), "10a employment no"),
    (D, (1600, 1040, 1950, 1103), "11a insured's date of birth"),
    (C, (2089, 1048, 2136, 1096), "11a sex M"), (C, (2300, 1051, 2347, 1097), "11a sex F (open box)"),
    (T, (82, 1130, 941, 1200), "9b reserved for NUCC use"),
    (C, (1101, 1150, 1146, 1196), "10b auto accident yes"), (C, (1280, 1150, 1325, 1196), "10b auto accident no"),
    (T, (1395, 1150, 1485, 1197), "10b place (state)"),
    (T, (1546, 1130, 2454, 1200), "11b other claim ID"),
    (T, (82, 1230, 941, 1301), "9c reserved for NUCC use"),
    (C, (1101, 1248, 1148, 1295), "10c other accident yes"), (C, (1280, 1248, 1325, 1295), "10c other accident no"),
    (T, (1546, 1230, 2454, 1301), "11c insurance plan name"),
    (T, (82, 1330, 941, 1401), "9d insurance plan name"),
    (T, (944, 1330, 1543, 1401), "10d claim codes"),
    (C, (1606, 1349, 1653, 1398), "11d another plan yes"), (C, (1759, 1350, 1804, 1398), "11d another plan no"),
    (S, (234, 1530, 984, 1585), "12 patient's signature (SIGNED line)"),
    (D, (1133, 1530, 1544, 1587), "12 date (line)"),
    (S, (1717, 1530, 2455, 1589), "13 insured's signature (SIGNED line)"),
    (D, (85, 1640, 430, 1699), "14 date of current illness"), (T, (530, 1640, 882, 1699), "14 qual"),
    (T, (930, 1640, 1040, 1699), "15 qual"), (D, (1100, 1640, 1450, 1699), "15 other date"),
    (D, (1620, 1640, 1890, 1699), "16 unable to work from"), (D, (2010, 1640, 2454, 1699), "16 unable to work to"),
    (T, (82, 1730, 882, 1798), "17 name of referring provider"),
    (T, (954, 1702, 1543, 1750), "17a other ID"), (T, (1018, 1752, 1543, 1798), "17b NPI"),
    (D, (1610, 1730, 1890, 1798), "18 hospitalization from"), (D, (2000, 1730, 2454, 1798), "18 hospitalization to"),
    (T, (82, 1830, 1543, 1900), "19 additional claim information"),
    (C, (1610, 1848, 1657, 1897), "20 outside lab yes"), (C, (1761, 1848, 1808, 1895), "20 outside lab no"),
    (T, (1893, 1850, 2454, 1900), "20 charges"),
    (T, (1315, 1891, 1378, 1955), "21 ICD indicator"),
]
for letter, (x0, x1), (y0, y1) in zip("ABCDEFGHIJKL",
        [(139, 352), (527, 741), (920, 1133), (1312, 1528)] * 3,
        [(1945, 1996)] * 4 + [(1997, 2045)] * 4 + [(2050, 2097)] * 4):
    F.append((T, (x0, y0, x1, y1), f"21 diagnosis {letter} (line)"))
F += [
    (T, (1546, 1940, 1890, 2001), "22 resubmission code"), (T, (1893, 1940, 2454, 2001), "22 original ref. no."),
    (T, (1546, 2040, 2454, 2102), "23 prior authorization number"),
]
rows = [(2198, 2246, 2297), (2299, 2346, 2400), (2400, 2446, 2497), (2498, 2547, 2598), (2599, 2647, 2698), (2699, 2747, 2797)]
lower = [(D, 82, 341, "24A from"), (D, 344, 611, "24A to"), (T, 614, 705, "24B place of service"), (T, 708, 796, "24C EMG"),
         (T, 799, 1013, "24D CPT/HCPCS"), (T, 1016, 1120, "24D modifier 1"), (T, 1123, 1208, "24D modifier 2"),
         (T, 1211, 1299, "24D modifier 3"), (T, 1302, 1392, "24D modifier 4"), (T, 1395, 1545, "24E diagnosis pointer"),
         (T, 1548, 1734, "24F charges, dollars"), (T, 1737, 1810, "24F charges, cents"), (T, 1814, 1931, "24G days or units"),
         (T, 1934, 1993, "24H EPSDT"), (T, 2085, 2454, "24J rendering provider NPI")]
for n, (top, mid, bottom) in enumerate(rows, 1):
    F.append((T, (82, top + 2, 1993, mid - 1), f"24 line {n} supplemental information (shaded)"))
    F.append((T, (1996, top + 2, 2082, mid - 1), f"24 line {n} I ID qualifier (shaded)"))
    F.append((T, (2085, top + 2, 2454, mid - 1), f"24 line {n} J other ID (shaded)"))
    for t, x0, x1, what in lower:
        F.append((t, (x0, mid, x1, bottom), f"24 line {n} {what}"))
F += [
    (T, (82, 2830, 520, 2899), "25 federal tax ID"),
    (C, (565, 2847, 612, 2893), "25 SSN (open box)"), (C, (625, 2847, 672, 2893), "25 EIN"),
    (T, (736, 2830, 1172, 2899), "26 patient's account no."),
    (C, (1193, 2849, 1240, 2895), "27 accept assignment yes"), (C, (1342, 2848, 1389, 2895), "27 accept assignment no"),
    (C, (1839, 2799, 1880, 2840), "small box beside 28"),
    (T, (1548, 2830, 1881, 2899), "28 total charge"),
    (T, (1884, 2830, 2168, 2899), "29 amount paid"),
    (T, (2171, 2830, 2454, 2899), "30 reserved for NUCC use"),
    (S, (82, 3000, 480, 3150), "31 signature of physician"),
    (D, (480, 3050, 733, 3150), "31 date"),
    (M, (737, 2930, 1545, 3093), "32 service facility location"),
    (T, (737, 3096, 1082, 3150), "32a NPI"), (T, (1085, 3096, 1545, 3150), "32b other ID"),
    (T, (1880, 2900, 2140, 2940), "33 phone number"),
    (M, (1548, 2930, 2454, 3093), "33 billing provider info"),
    (T, (1548, 3096, 1891, 3150), "33a NPI"), (T, (1894, 3096, 2454, 3150), "33b other ID"),
]
emit("form-cms1500-claim", "images/form-cms1500-claim.png", 2550, 3300, 612, 792, F,
     "Filled CMS-1500 (02/12) in red drop-out ink. Every answer area a filler would type into: cells below their printed question, date groups (MM DD YY) as one date, the six service lines' cells (shaded supplemental half and white half; modifiers and dollars/cents separately, as the form divides them), tick boxes including the open 'corner' boxes of SEX and SSN. The carrier address block at the top right has no ruling.")
