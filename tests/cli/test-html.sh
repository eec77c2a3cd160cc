#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report --format=html in a real headless Chromium (docs/report.md, "HTML"): the page
# renders, its console stays empty, no request leaves it, and on the 75/25 workload under
# vpmu the hot function's frame spans the hot function's share of the flame graph's width.
# Names holding markup stay text. A screenshot is left in the build tree for a person.
. "$(dirname "$0")/lib.sh"

command -v chromium >/dev/null ||
	skip_cap no-chromium "chromium is not installed (scripts/setup.sh --test installs it)"
"$PMC" doctor >"$T/doctor" 2>&1
grep -qE '^ *\[ok\] vpmu' "$T/doctor" || skip "the vpmu tool is not available: $(grep vpmu "$T/doctor")"
SHOTS=$BUILD/test-html
mkdir -p "$SHOTS"

# browse NAME FILE [chromium args...]: opens FILE offline, as a fresh profile; the DOM after the
# scripts ran goes to $T/NAME.dom, the browser's log (console included) to $T/NAME.err and
# its network log to $T/NAME.net.
browse() {
	local name=$1 file=$2
	shift 2
	timeout 60 chromium --headless=new --no-sandbox --host-resolver-rules="MAP * ~NOTFOUND" \
		--user-data-dir="$T/profile-$name" --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --disable-default-apps \
		--enable-logging=stderr --v=0 --log-net-log="$T/$name.net" --window-size=1200,900 \
		--virtual-time-budget=3000 "$@" "file://$file" >"$T/$name.dom" 2>"$T/$name.err"
}
# page_requests NAME: the URLs the page asked for (the browser's own background requests,
# which have no file:// origin, are not the page's).
page_requests() {
	python3 - "$T/$1.net" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
urls = {e["params"]["url"] for e in j["events"]
        if e.get("params", {}).get("network_isolation_key", "").startswith("file://")
        and not e["params"].get("url", "file:").startswith(("file:", "data:"))}
print(" ".join(sorted(urls)))
PY
}
# width NAME FRAME: the summed measured width (percent) of the frames named FRAME.
width() {
	python3 - "$T/$1.dom" "$2" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    total = 0.0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "frame" in (a.get("class") or "").split() and a.get("data-name") == sys.argv[2]:
            P.total += float(a["data-width"])
P().feed(open(sys.argv[1]).read())
print(f"{P.total:.2f}")
PY
}

# The 75/25 workload under vpmu: instruction samples split as the loops' iterations.
"$PMC" record --backend=vpmu -e instructions -c 100000 -o "$T/split.data" \
	"$PROGS/sample-split" 4 >/dev/null 2>"$T/rec.err" || fail "pmc record: $(cat "$T/rec.err")"
"$PMC" report -i "$T/split.data" -F html -o "$T/split.html" 2>"$T/rep.err"
expect_eq "report --format=html -o exits 0" $? 0
expect_eq "nothing on stdout or stderr" "$(cat "$T/rep.err")" ""
expect_eq "the page names nothing outside itself" \
	"$(grep -oE '(src|href|action)="[^"]*"' "$T/split.html" | sort -u | tr '\n' ' ')" 'href="data:," '
expect_grep "the page forbids every fetch (CSP)" "Content-Security-Policy\" content=\"default-src 'none'" "$T/split.html"
hot=$("$PMC" report -i "$T/split.data" -F csv | awk -F, '$6 == "\"[.] hot\"" { print $2 }')
browse split "$T/split.html" --dump-dom
expect_grep "the page's script ran to its end" '<body data-ready="1">' "$T/split.dom"
expect_no_grep "no console message" "CONSOLE" "$T/split.err"
expect_eq "no request left the page" "$(page_requests split)" ""
w=$(width split hot)
expect_eq "hot's frame spans 75 % +- 5 of the width (got $w)" \
	"$(python3 -c "print(70 <= $w <= 80)")" True
expect_eq "hot's frame width is its share in the text report ($hot %, got $w)" \
	"$(python3 -c "print(abs($w - $hot) <= 0.5)")" True
expect_eq "cold's frame spans 25 % +- 5 (got $(width split cold))" \
	"$(python3 -c "print(20 <= $(width split cold) <= 30)")" True
expect_grep "the top table lists hot with its share" \
	"<td>$(printf %.2f "$hot")%</td>.*<td class=\"name\">\[\.\] hot</td>" "$T/split.dom"
expect_grep "source-line heat shows hot's loop" '<td class="text">.*sink \+= i \* 7;</td>' "$T/split.dom"
browse shot "$T/split.html" --screenshot="$SHOTS/report.png"
expect_eq "a screenshot for a person ($SHOTS/report.png)" \
	"$([ "$(stat -c %s "$SHOTS/report.png" 2>/dev/null || echo 0)" -gt 10000 ] && echo yes)" yes

# Markup in every name: the program's (the comm), its function's symbol and the file's path.
# The page shows each as text; no element of theirs appears, and the script still runs.
mkdir -p "$T/<"
cp "$PROGS/html-hostile" "$T/<b id=pwn2>q"
hdata="$T/</script><b id=pwn1>.data"
"$PMC" record --backend=vpmu -e instructions -c 100000 -o "$hdata" "$T/<b id=pwn2>q" \
	>/dev/null 2>"$T/rec.err" || fail "pmc record (hostile names): $(cat "$T/rec.err")"
"$PMC" report -i "$hdata" -F html -o "$T/hostile.html"
expect_eq "hostile names: the report is written" $? 0
expect_no_grep "hostile names: no markup of theirs in the file" '<b id=pwn|<i id=pwn' "$T/hostile.html"
browse hostile "$T/hostile.html" --dump-dom
expect_grep "hostile names: the script ran to its end" '<body data-ready="1">' "$T/hostile.dom"
expect_no_grep "hostile names: no element of theirs" '<(b|i) id="?pwn' "$T/hostile.dom"
expect_no_grep "hostile names: no console message" "CONSOLE" "$T/hostile.err"
expect_grep "hostile names: the symbol shown as text" \
	'<td class="name">\[\.\] &lt;/script&gt;&lt;i id=pwn3&gt;</td>' "$T/hostile.dom"
expect_grep "hostile names: the comm shown as text" '>&lt;b id=pwn2&gt;q</div>' "$T/hostile.dom"
expect_grep "hostile names: the file's path shown as text" '&lt;/script&gt;&lt;b id=pwn1&gt;.data: ' "$T/hostile.dom"

"$PMC" report -i "$T/split.data" -F htm >/dev/null 2>"$T/bad"
expect_eq "an unknown format is a usage error" $? 2
expect_grep "the formats are named" "text, csv, json, folded or html" "$T/bad"
finish
