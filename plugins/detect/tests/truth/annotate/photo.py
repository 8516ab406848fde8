from emit import emit
H = 110  # handwriting height above a line, in photo pixels
lines = [  # (type, x0, x1, y of the line's top, what)
    ("text", 385, 1057, 466, "First Name"), ("text", 1374, 2049, 470, "Last Name"), ("date", 2456, 2939, 473, "Date of Birth"),
    ("text", 211, 410, 610, "Sex"), ("text", 846, 1348, 612, "Marital Status"), ("email", 1741, 2953, 616, "Email Address"),
    ("text", 348, 1877, 762, "Address"), ("text", 2048, 2951, 776, "City"),
    ("text", 268, 409, 940, "State"), ("text", 712, 1131, 940, "Zip Code"), ("text", 1366, 2178, 945, "Phone"),
    ("text", 383, 1049, 1254, "Emergency contact 1: First Name"), ("text", 1361, 2030, 1262, "Emergency contact 1: Last Name"),
    ("text", 283, 1086, 1354, "Emergency contact 1: Phone"), ("text", 1649, 2733, 1367, "Emergency contact 1: Relationship"),
    ("text", 385, 1048, 1693, "Emergency contact 2: First Name"), ("text", 1358, 2017, 1704, "Emergency contact 2: Last Name"),
    ("text", 284, 1084, 1791, "Emergency contact 2: Phone"), ("text", 1642, 2717, 1806, "Emergency contact 2: Relationship"),
]
F = [(t, (x0, y - H, x1, y + 4), what + " (answer line)") for t, x0, x1, y, what in lines]
boxes = [(2076, 2378, 2170, 2455), (2381, 2381, 2475, 2460), (2075, 2647, 2167, 2727), (2376, 2650, 2468, 2729),
         (2071, 2913, 2163, 2992), (2370, 2915, 2467, 2993), (2065, 3173, 2156, 3250), (2361, 3175, 2461, 3253),
         (2059, 3428, 2149, 3505), (2355, 3435, 2445, 3513), (2054, 3685, 2144, 3762), (2350, 3694, 2443, 3771)]
for i, b in enumerate(boxes):
    F.append(("checkbox", b, f"question {i//2+1} {'Yes' if i % 2 == 0 else 'No'} (tick box)"))
emit("form-patient-intake-photo", "images/form-patient-intake-photo.jpg (EXIF orientation 6, annotated upright)", 3024, 4032, 3024, 4032, F,
     "Phone photo of a filled intake form: 19 answer lines with handwriting, six yes/no questions with a tick box each side (ticked ones included: they are the form's boxes). The scanned PDF wraps the same JPEG, stored sideways on a /Rotate 90 page; its truth is this one turned back a quarter to the stored pixels and mapped onto its picture's frame (tests/common/score.rs).")
