#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report --format=html and pmc stat --format=html in a real headless Chromium
# (docs/report.md, "HTML"): the page renders, its console stays empty, no request leaves it,
# and on the 75/25 workload under vpmu the hot function's frame spans the hot function's
# share of the flame graph's width; pmc stat's page draws each run as a dot and the interval
# the results file gives. Names holding markup stay text. Screenshots are left in the build
# tree for a person.
. "$(dirname "$0")/lib.sh"

command -v chromium >/dev/null ||
	skip_cap no-chromium "chromium is not installed (scripts/setup.sh --test installs it)"
require_vpmu
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
expect_eq "the page's data carries the schema docs/versioning.md lists" \
	"$(python3 -c "import json,re,sys; print(json.loads(re.search(r'id=\"pmc-data\">(.*?)</script>', open(sys.argv[1]).read(), re.S).group(1))['schema'])" "$T/split.html")" \
	"$(grep -o '| `pmc-report-html/[0-9]*`' "$SRC/docs/versioning.md" | tr -d '|` ')"
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
# The flame graph's tools, as a link sets them: search with the share it matched, the icicle
# view (the root on top: hot two rows down), zoom (hot then spans the whole width).
browse search "$T/split.html#search=^hot%24&icicle=1" --dump-dom
expect_grep "search: hot marked" '<div class="frame match" data-name="hot"' "$T/search.dom"
expect_grep "search: the share matched is hot's" "<span id=\"found\">matched: $(printf %.2f "$hot")%</span>" "$T/search.dom"
expect_grep "icicle: hot two rows below the root" 'data-name="hot"[^>]* style="[^"]*top: 34px' "$T/search.dom"
browse zoom "$T/split.html#zoom=hot" --dump-dom
expect_eq "zoom: hot spans the whole width" "$(width zoom hot)" 100.00
expect_eq "zoom: cold is not drawn" "$(width zoom cold)" 0.00
expect_no_grep "zoom: no console message" "CONSOLE" "$T/zoom.err"

# Data addresses (precise loads with addresses, latency and data source, under vpmu).
"$PMC" record --backend=vpmu -e MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD:pp -c 1009 -d -W \
	--data-src -o "$T/d.data" "$PROGS/vpmu-load" 1 >/dev/null 2>"$T/rec.err" ||
	fail "pmc record -d: $(cat "$T/rec.err")"
# The text report's share of loads from RAM and their mean latency (from -s dsrc,weight).
ram=$("$PMC" report -i "$T/d.data" -s dsrc,weight -F csv | python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(sys.stdin) if r["dsrc"] == "Local RAM hit"]
n = sum(int(r["samples"]) for r in rows)
print("%.3f %d %.1f" % (sum(float(r["overhead"]) for r in rows), n,
                        sum(int(r["samples"]) * int(r["weight"]) for r in rows) / n))')
"$PMC" report -i "$T/d.data" -F html -o "$T/d.html"
browse data "$T/d.html" --dump-dom
expect_grep "data: a view by cache line" '<h3>By cache line</h3>' "$T/data.dom"
got=$(sed -n 's|.*<td>\([0-9.]*\)%</td><td>\([0-9]*\)</td><td>\([0-9.]*\)</td><td class="name">Local RAM hit</td>.*|\1 \2 \3|p' "$T/data.dom")
# (The page rounds a share half up, printf half to even: they may differ in the last digit.)
expect_eq "data: by data source, the text report's share, samples and mean latency ($got; $ram)" \
	"$(python3 -c 'import sys; a, b = sys.argv[1].split(), sys.argv[2].split(); print(len(a) == 3 and abs(float(a[0]) - float(b[0])) < 0.011 and a[1:] == b[1:])' "$got" "$ram")" True
expect_no_grep "data: no console message" "CONSOLE" "$T/data.err"

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

# One sample: the page says "1 sample" (it said "1 samples"). The period is two thirds of
# the run's exact instruction count under vpmu, so the run ends between the first overflow
# and the second.
n=$("$PMC" stat --backend=vpmu -x, -e instructions "$PROGS/vpmu-loop" loop 10 2>&1 >/dev/null |
	awk -F, '$3 == "instructions" { print $1 }')
"$PMC" record --backend=vpmu -e instructions -c $((${n:-300} * 2 / 3)) -o "$T/one.data" \
	"$PROGS/vpmu-loop" loop 10 >/dev/null 2>"$T/rec.err" || fail "pmc record: $(cat "$T/rec.err")"
"$PMC" report -i "$T/one.data" -F html -o "$T/one.html" 2>"$T/rep.err"
browse one "$T/one.html" --dump-dom
expect_grep "one sample: the file's line says 1 sample" ': 1 sample, 0 lost' "$T/one.dom"
expect_grep "one sample: the event's line too" 'event instructions: 1 sample, sum of sample periods [0-9,]+, no estimate: only 1 sample' "$T/one.dom"
expect_no_grep "one sample: never '1 samples'" '[^0-9,]1 samples' "$T/one.dom"

# pmc stat's page: the pmc-stat/1 model in an island; its charts drawn from it.
# island FILE EXPR: EXPR with j = the page's data (its JSON island).
island() {
	python3 -c "import json,re,sys; j=json.loads(re.search(r'id=\"pmc-data\">(.*?)</script>', open(sys.argv[1]).read(), re.S).group(1)); print($2)" "$1"
}
# attrs NAME SELECTOR-TAG CLASS: the data-* attributes of each such element in the DOM, one
# line each, in order, as "chart-name data-value" or "chart-name data-lo data-hi".
attrs() {
	python3 - "$T/$1.dom" "$2" "$3" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    chart = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            P.chart = a.get("data-name")
        if tag == sys.argv[2] and a.get("class") == sys.argv[3]:
            print(P.chart, *[v for k, v in attrs if k in ("data-value", "data-lo", "data-hi")])
P().feed(open(sys.argv[1]).read())
PY
}
R="$PROGS/vpmu-region"
# With metrics: one of the run's (its threshold holds under vpmu), one defined here.
SM=(-M branch_miss_rate -M 'ipb = instructions / branches')
"$PMC" stat --backend=vpmu -e instructions,branches "${SM[@]}" -r 3 --format html \
	-o "$T/stat.html" "$R" 10 1000 2>"$T/stat.err"
expect_eq "stat --format=html -o exits 0" $? 0
"$PMC" stat --backend=vpmu -e instructions,branches "${SM[@]}" -r 3 --format json \
	-o "$T/stat.json" "$R" 10 1000 2>>"$T/stat.err"
# (Region counts are exact under vpmu; a whole run's may differ by a few dozen instructions.)
expect_eq "stat: the page's model is the JSON file's" \
	"$(island "$T/stat.html" 'j["schema"], sorted(j), [e["name"] for e in j["events"]], [[e["values"] for e in r["events"]] for r in j["regions"]]')" \
	"$(json "$T/stat.json" 'j["schema"], sorted(j), [e["name"] for e in j["events"]], [[e["values"] for e in r["events"]] for r in j["regions"]]')"
browse stat "$T/stat.html" --dump-dom
expect_grep "stat: the page's script ran to its end" '<body data-ready="1">' "$T/stat.dom"
expect_no_grep "stat: no console message" "CONSOLE" "$T/stat.err"
expect_eq "stat: no request left the page" "$(page_requests stat)" ""
expect_eq "stat: each run a dot at its count, events then the region's" \
	"$(attrs stat circle rep | grep '^instructions' | tr '\n' ' ')" \
	"$(island "$T/stat.html" '" ".join("instructions %d" % v for v in j["events"][0]["values"] + j["regions"][0]["events"][0]["values"])') "
expect_eq "stat: the region's dots at its exact count (10 entries)" \
	"$(attrs stat circle rep | grep -c "^instructions $(json "$T/stat.json" 'int(j["regions"][0]["events"][0]["values"][0])')$")" 3
expect_grep "stat: a chart per region" '<h2 class="region">Region loop</h2>' "$T/stat.dom"
# metric_rows: each tr.metric of the DOM as "name value flagged", in order.
metric_rows() {
	python3 - "$T/$1.dom" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and a.get("class") == "metric":
            print(a["data-name"], float(a["data-value"]) if a["data-value"] else "-", a["data-flagged"])
P().feed(open(sys.argv[1]).read())
PY
}
expect_eq "stat: each metric a row, the whole program's then the region's, at the model's value" \
	"$(metric_rows stat | tr '\n' ' ')" \
	"$(island "$T/stat.html" '" ".join("%s %r %s" % (m["name"], m["value"], str(m["flagged"]).lower().replace("none", "null")) for m in j["metrics"] + j["regions"][0]["metrics"])') "
expect_eq "stat: the metrics are the JSON file's" \
	"$(island "$T/stat.html" '[(m["name"], m["value"], m["n"]) for m in j["metrics"]]')" \
	"$(json "$T/stat.json" '[(m["name"], m["value"], m["n"]) for m in j["metrics"]]')"
# The threshold in the metric's unit, as its value (12 %, beside 5 %; its file says 0.05).
expect_eq "stat: branch_miss_rate's threshold holds under vpmu, marked, in the metric's unit" \
	"$(metric_rows stat | head -1 | cut -d' ' -f3) $(grep -c '<td class="threshold">branch_miss_rate &gt; 5 % &lt;== holds</td>' "$T/stat.dom")" \
	"true 1"
expect_eq "stat: a metric's error bar spans value -+ interval" \
	"$(attrs stat line ci | grep '^ipb' | head -1)" \
	"$(island "$T/stat.html" '"ipb %r %r" % (j["metrics"][1]["value"] - j["metrics"][1]["ci"], j["metrics"][1]["value"] + j["metrics"][1]["ci"])')"
expect_eq "stat: each run's value of a per-repetition metric a dot, the program's then the region's" \
	"$(attrs stat circle rep | grep '^ipb ' | tr '\n' ' ')" \
	"$(island "$T/stat.html" '" ".join("ipb %r" % v for v in j["metrics"][1]["values"] + j["regions"][0]["metrics"][1]["values"])') "
expect_eq "stat: a metric's dots are its runs" \
	"$(island "$T/stat.html" '[(m["method"], len(m["values"]), m["n"]) for m in j["metrics"]]')" \
	"[('per-repetition', 3, 3), ('per-repetition', 3, 3)]"
browse stat-shot "$T/stat.html" --screenshot="$SHOTS/stat.png"
expect_eq "a screenshot of pmc stat's page ($SHOTS/stat.png)" \
	"$([ "$(stat -c %s "$SHOTS/stat.png" 2>/dev/null || echo 0)" -gt 5000 ] && echo yes)" yes

# A region's threads (--region-per-thread) and the units of --per-thread: each a heading, its
# events and its metrics, in the model's order.
"$PMC" stat --backend=vpmu -e instructions,branches -M 'ipb = instructions / branches' -r 2 \
	--region-per-thread --format html -o "$T/rt.html" "$R" 10 1000 2>>"$T/stat.err"
expect_eq "stat --region-per-thread --format=html exits 0" $? 0
browse rt "$T/rt.html" --dump-dom
expect_eq "stat: a heading per region thread" \
	"$(grep -o '<h3 class="region-thread">[^<]*</h3>' "$T/rt.dom" | sed 's/<[^>]*>//g' | tr '\n' ';')" \
	"$(island "$T/rt.html" '"".join("Region %s, thread %d;" % (r["name"], t["thread"]) for r in j["regions"] for t in r["threads"])')"
expect_eq "stat: the metrics of the program, each region and each of its threads, in order" \
	"$(metric_rows rt | tr '\n' ' ')" \
	"$(island "$T/rt.html" '" ".join("%s %r %s" % (m["name"], m["value"], str(m["flagged"]).lower().replace("none", "null")) for m in j["metrics"] + [m for r in j["regions"] for m in r["metrics"] + [m for t in r["threads"] for m in t["metrics"]]])') "
expect_eq "stat: a region thread's metric is there" \
	"$(island "$T/rt.html" 'len(j["regions"][0]["threads"][0]["metrics"])')" 1
"$PMC" stat --per-thread -e task-clock -M 'tc2 = 2 * task\-clock' --format html -o "$T/pt.html" \
	"$PROGS/threads-getppid" 2 10 2>>"$T/stat.err"
expect_eq "stat --per-thread --format=html exits 0" $? 0
browse pt "$T/pt.html" --dump-dom
expect_no_grep "stat (per thread): no console message" "CONSOLE" "$T/pt.err"
expect_eq "stat: a heading per thread, its label" \
	"$(grep -o '<h2 class="unit">[^<]*</h2>' "$T/pt.dom" | sed 's/<[^>]*>//g' | tr '\n' ';')" \
	"$(island "$T/pt.html" '"".join("Thread %s;" % u["label"] for u in j["units"])')"
expect_eq "stat: three threads" "$(island "$T/pt.html" 'len(j["units"])')" 3
expect_eq "stat: each thread's metric a row at its value, after the program's" \
	"$(metric_rows pt | tr '\n' ' ')" \
	"$(island "$T/pt.html" '" ".join("%s %r %s" % (m["name"], m["value"], "null") for m in j["metrics"] + [m for u in j["units"] for m in u["metrics"]])') "
expect_eq "stat: a thread's events' dots, at its counts" \
	"$(attrs pt circle rep | grep -c '^task-clock ')" \
	"$(island "$T/pt.html" '1 + len(j["units"])')"

# Runs that differ: the error bar spans the model's mean -+ interval; a command argument
# holding markup stays text.
"$PMC" stat -e task-clock -r 5 --format html -o "$T/tc.html" -- "$PROGS/exit-with" exit 0 \
	'</script><b id=pwn5>' 2>>"$T/stat.err"
expect_eq "stat (task-clock, 5 runs) exits 0" $? 0
browse tc "$T/tc.html" --dump-dom
expect_eq "stat: the error bar spans mean -+ interval" "$(attrs tc line ci)" \
	"$(island "$T/tc.html" '"task-clock %r %r" % (j["events"][0]["mean"] - j["events"][0]["ci"], j["events"][0]["mean"] + j["events"][0]["ci"])')"
expect_eq "stat: five dots" "$(attrs tc circle rep | wc -l)" 5
expect_no_grep "stat: the argument's markup is no element" '<b id="?pwn' "$T/tc.dom"
expect_grep "stat: the argument shown as text" 'exit 0 &lt;/script&gt;&lt;b id=pwn5&gt;</p>' "$T/tc.dom"
expect_no_grep "stat (hostile argument): no console message" "CONSOLE" "$T/tc.err"

"$PMC" report -i "$T/split.data" -F htm >/dev/null 2>"$T/bad"
expect_eq "an unknown format is a usage error" $? 2
expect_grep "the formats are named" "text, csv, json, folded, html, pprof, speedscope or callgrind" "$T/bad"
finish
