"""Checks the requests receiver.py logged with the standardwebhooks package (the Standard
Webhooks reference implementation), not with Quire's own signing code.

Usage: python3 verify.py LOG SECRET...
Prints a JSON list, one entry per request: its path, webhook-id, the indexes of the
SECRETs its signature verifies with, how many signatures it carried, and its parsed body.
"""

import json
import sys

from standardwebhooks import Webhook

log, secrets = sys.argv[1], sys.argv[2:]
out = []
with open(log, encoding="utf-8") as f:
    for line in f:
        request = json.loads(line)
        verified = []
        for i, secret in enumerate(secrets):
            try:
                Webhook(secret).verify(request["body"], request["headers"])
                verified.append(i)
            except Exception:
                pass
        headers = {k.lower(): v for k, v in request["headers"].items()}
        out.append({
            "path": request["path"],
            "id": headers.get("webhook-id"),
            "verified_by": verified,
            "signatures": len(headers.get("webhook-signature", "").split()),
            "payload": json.loads(request["body"]),
        })
print(json.dumps(out))
