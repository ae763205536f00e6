#!/bin/sh
# Rebuilds test/template/cases/*.json from cases.py and fills in Go's results. Needs Go and python3.
set -e
cd "$(dirname "$0")"
python3 cases.py ../../test/template/cases
TZ=UTC go run . ../../test/template/cases/*.json
