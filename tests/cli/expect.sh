#!/bin/sh
# expect.sh CODE REGEX CMD... — runs CMD, passes when it exits with CODE and
# its standard error matches REGEX (extended, case-sensitive).
code=$1; regex=$2; shift 2
err=$("$@" 2>&1 >/dev/null); rc=$?
if [ "$rc" -ne "$code" ]; then echo "FAIL: exit $rc, expected $code; stderr: $err"; exit 1; fi
if ! printf '%s\n' "$err" | grep -Eq -- "$regex"; then echo "FAIL: stderr does not match /$regex/: $err"; exit 1; fi
echo "ok: exit $rc, message: $err"
