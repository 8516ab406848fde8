"""What can be checked of compose.yaml without a registry: it parses; the Quire services
run the image `make image` tags, keep their data in a volume at /data, use `quire ready` as
their health check, and name only settings `quire serve --help` knows; Garage's config
parses and agrees with the region and port the Quire services use.

Usage: python3 check-compose.py COMPOSE_YAML GARAGE_TOML SERVE_HELP_FILE
Prints one line per problem and exits 1 if there is any."""

import re
import sys
import tomllib

import yaml

compose = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
garage = tomllib.load(open(sys.argv[2], "rb"))
known = set(re.findall(r"env: ([A-Z0-9_]+)[=\]]", open(sys.argv[3], encoding="utf-8").read()))
# Read by the S3 client and the database driver rather than declared by `serve`.
known |= {"DATABASE_URL", "AWS_ENDPOINT_URL", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}
problems = []
services = compose.get("services", {})
quire = {name: s for name, s in services.items() if "quire" in str(s.get("image", ""))}
if len(quire) < 2:
    problems.append("fewer than two Quire services")
for name, s in quire.items():
    if s["image"] != "localhost/quire:latest":
        problems.append(f"{name}: image {s['image']} is not what `make image` tags")
    if not any(str(v).endswith(":/data") for v in s.get("volumes", [])):
        problems.append(f"{name}: no volume at /data")
    if s.get("healthcheck", {}).get("test") != ["CMD", "/usr/local/bin/quire", "ready"]:
        problems.append(f"{name}: the health check is not `quire ready`")
    for var in s.get("environment", {}):
        if var not in known:
            problems.append(f"{name}: {var} is no setting of quire serve")
    env = s["environment"]
    if env.get("AWS_REGION") != garage["s3_api"]["s3_region"]:
        problems.append(f"{name}: AWS_REGION is not Garage's s3_region")
    port = garage["s3_api"]["api_bind_addr"].rsplit(":", 1)[1]
    if not env.get("AWS_ENDPOINT_URL", "").endswith(f":{port}"):
        problems.append(f"{name}: AWS_ENDPOINT_URL does not reach Garage's S3 port {port}")
for needed in ("postgres", "garage"):
    if needed not in services:
        problems.append(f"no {needed} service")
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
