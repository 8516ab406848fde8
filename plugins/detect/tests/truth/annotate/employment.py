from emit import emit
F = []
# Unruled answers after bold labels: nothing marks them but the label (no OCR: not findable).
F += [("text", (232, 318, 700, 356), "Full Name (unruled)"),
      ("text", (288, 378, 700, 416), "Phone Number (unruled)"),
      ("text", (282, 440, 800, 478), "Home Address (unruled)"),
      ("text", (300, 500, 800, 538), "Mailing Address (unruled)")]
cols = [(92, 248, "Start Date", "date"), (250, 404, "End Date", "date"), (406, 658, "Employer Name", "text"),
        (660, 880, "Position Held", "text"), (882, 1160, "Reason for leaving", "text")]
rows = [(712, 766), (768, 820), (822, 912)]
for i, (y0, y1) in enumerate(rows):
    for x0, x1, what, t in cols:
        F.append((t, (x0, y0, x1, y1), f"row {i+1} {what} (table cell)"))
emit("form-employment-application", "images/form-employment-application.png", 1362, 1038, 681, 519, F,
     "Filled typed form. The four applicant answers have no line or box; the history table's data cells are the ruled blanks.")
