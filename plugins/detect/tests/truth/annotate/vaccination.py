from emit import emit
F = [("text", (38, 125, 398, 186), "Last Name (line)"),
     ("text", (404, 125, 978, 186), "First Name (line)"),
     ("text", (982, 125, 1378, 186), "MI (line)"),
     ("date", (38, 238, 640, 307), "Date of Birth (line)"),
     ("text", (650, 238, 1378, 307), "Patient number (line)")]
rows = [(480, 589, "1st Dose"), (596, 707, "2nd Dose"), (712, 823, "Booster"), (828, 940, "Other")]
for y0, y1, r in rows:
    F.append(("text", (283, y0, 765, y1), f"{r}: product name / lot number (cell)"))
    F.append(("date", (772, y0, 973, y1), f"{r}: date mm/dd/yy (cell with underlined date blanks)"))
    F.append(("text", (978, y0, 1375, y1), f"{r}: healthcare professional or clinic (cell)"))
emit("form-vaccination-card", "images/form-vaccination-card.png", 1412, 964, 706, 482, F,
     "Name and birth lines (label below the line); four dose rows of three answer cells; the date cell's __/__/__ is one date. A pasted sticker covers the 2nd dose product cell.")
