#!/bin/sh
# po-tool.sh — maintains the message catalogues in po/ (gettext text domain
# "motus"; the languages are listed in po/LINGUAS, the sources in po/POTFILES).
#
#   po-tool.sh update   regenerate po/motus.pot with xgettext and merge it into
#                       every po/LANG.po with msgmerge (build target update-po);
#                       then translate what msgmerge left untranslated or fuzzy
#   po-tool.sh check    every po/LANG.po passes msgfmt --check and has no
#                       untranslated or fuzzy message left (ctest po_complete)
#   po-tool.sh current  the sources hold no message missing from motus.pot or
#                       from a catalogue (ctest po_current; fix: update, translate)
#
# Keywords: MT_ and MT_N_ (core, mt_i18n.h), _ and N_ (motus-cli, the GTK
# application). xgettext picks the language by extension: C for .c/.h, GtkBuilder
# for .ui files (their translatable="yes" properties). The --flag options
# tell xgettext which arguments are printf formats, so that msgfmt --check
# compares the conversion specifications of every translation with its msgid.
set -eu
PO=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$PO")
LINGUAS=$(sed -e 's/#.*//' "$PO/LINGUAS")
VERSION=$(sed -n 's/^project(motus VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")

extract() { # extract OUTPUT.pot
    sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$PO/POTFILES" > "$1.files"
    xgettext --from-code=UTF-8 \
        --keyword=MT_ --keyword=MT_N_ --keyword=MT_NC_:1c,2 --keyword=_ --keyword=N_ \
        --flag=MT_:1:pass-c-format --flag=_:1:pass-c-format \
        --flag=mt_error_set:4:c-format --flag=perr:3:c-format --flag=cli_err:1:c-format \
        --add-comments=TRANSLATORS: \
        --package-name=motus --package-version="${VERSION:-0}" --copyright-holder="the Motus authors" \
        --msgid-bugs-address="" \
        --directory="$SRC" --files-from="$1.files" --output="$1" 2> "$1.err" || { cat "$1.err" >&2; exit 1; }
    # Motus has no bug-report address: drop xgettext's reminder, keep anything else.
    grep -v -e 'msgid-bugs-address' -e "Makevars' file" -e 'MSGID_BUGS_ADDRESS' "$1.err" >&2 || true
    rm -f "$1.files" "$1.err"
}

status=0
case "${1:-}" in
update)
    extract "$PO/motus.pot"
    for l in $LINGUAS; do
        msgmerge --quiet --update --backup=none --previous "$PO/$l.po" "$PO/motus.pot"
        echo "$l.po: $(msgfmt --check --statistics --output-file=/dev/null "$PO/$l.po" 2>&1)"
    done
    ;;
check)
    for l in $LINGUAS; do
        f="$PO/$l.po"
        stats=$(msgfmt --check --statistics --output-file=/dev/null "$f" 2>&1) || status=1
        echo "$l.po: $stats"
        u=$(msgattrib --untranslated --no-obsolete "$f")
        if [ -n "$u" ]; then echo "FAIL: $l.po has untranslated messages:"; printf '%s\n' "$u"; status=1; fi
        z=$(msgattrib --only-fuzzy --no-obsolete "$f")
        if [ -n "$z" ]; then echo "FAIL: $l.po has fuzzy messages:"; printf '%s\n' "$z"; status=1; fi
        msgcmp "$f" "$PO/motus.pot" || { echo "FAIL: $l.po lacks messages of motus.pot"; status=1; }
    done
    ;;
current)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    extract "$tmp/fresh.pot"
    msgcmp --use-untranslated "$PO/motus.pot" "$tmp/fresh.pot" ||
        { echo "FAIL: po/motus.pot is out of date: run 'cmake --build build --target update-po'"; status=1; }
    # every source that marks messages is listed in POTFILES (a new file was missed once)
    for f in $(cd "$SRC" && grep -lE '(MT_|MT_N_|[^A-Za-z0-9_]N?_)\("' core/*.c core/*/*.c app/*.c ui/*.c 2>/dev/null); do
        grep -qx "$f" "$PO/POTFILES" || { echo "FAIL: $f marks messages but is not in po/POTFILES"; status=1; }
    done
    for l in $LINGUAS; do
        msgcmp "$PO/$l.po" "$tmp/fresh.pot" ||
            { echo "FAIL: po/$l.po does not translate every message of the sources"; status=1; }
    done
    ;;
*)
    echo "usage: po-tool.sh update|check|current" >&2
    exit 2
    ;;
esac
[ $status -eq 0 ] && echo "po-tool.sh $1: OK"
exit $status
