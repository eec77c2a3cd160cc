// SPDX-License-Identifier: MIT
// pmc report's page: per event a flame graph (zoom, search, reset, icicle), the top table
// with callers and callees, data-address views; source-line heat of the hottest functions.
(function () {
	var D = pmc.data, el = pmc.el, names = D.names, cur = 0;
	// The view a link asks for: #event=N&search=REGEX&zoom=NAME&icicle=1 (each optional).
	var want = {};
	location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
		var i = kv.indexOf("=");
		if (i > 0)
			want[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
	});
	if (want.event >= 0 && want.event < D.events.length)
		cur = Number(want.event);

	// The tree of event ev's stacks: {name, value, kids: {name index: node}}.
	function tree(ev) {
		var root = {name: "all", value: 0, kids: {}, depth: 0};
		ev.stacks.forEach(function (s) {
			var n = root, p = s[0];
			root.value += p;
			for (var i = 1; i < s.length; i++) {
				var k = n.kids[s[i]];
				if (!k)
					k = n.kids[s[i]] = {name: names[s[i]], value: 0, kids: {},
						parent: n, depth: n.depth + 1};
				k.value += p;
				n = k;
			}
		});
		return root;
	}

	function hue(name) {
		var h = 0;
		for (var i = 0; i < name.length; i++)
			h = (h * 31 + name.charCodeAt(i)) % 360;
		return "hsl(" + (h % 60) + ",80%," + (58 + (h % 20)) + "%)";
	}

	// The flame graph of one event: frames as positioned boxes, widths in percent of the
	// shown root, each marked with its measured width (data-width, percent of the graph).
	function flame(ev) {
		var root = tree(ev), shown = root, icicle = false, ROW = 17;
		var box = el("div", {class: "flame", id: "flame"}), tip = el("div", {class: "tip"});
		var search = el("input", {type: "search", placeholder: "search (regular expression)",
			id: "search"});
		var found = el("span", {id: "found"});
		var depthOf = function (n) { var d = 0; for (; n.parent; n = n.parent) d++; return d; };
		// The widest frame named name, for a link's zoom.
		function find(n, name) {
			var best = n.name === name ? n : null;
			for (var k in n.kids) {
				var f = find(n.kids[k], name);
				if (f && (!best || f.value > best.value))
					best = f;
			}
			return best;
		}
		search.value = want.search || "";
		icicle = want.icicle === "1";
		shown = (want.zoom && find(root, want.zoom)) || root;

		function maxDepth(n) {
			var d = 0;
			for (var k in n.kids)
				d = Math.max(d, 1 + maxDepth(n.kids[k]));
			return d;
		}
		function draw() {
			var total = shown.value || 1, base = depthOf(shown), rows = maxDepth(shown) + 1;
			var re = null;
			try { re = search.value ? new RegExp(search.value) : null; } catch (e) { re = null; }
			box.textContent = "";
			box.style.height = rows * ROW + "px";
			var matched = 0;
			function put(n, x, anc) {
				var w = n.value / total;
				if (w < 0.001)
					return;
				var d = n.depth - base, hit = re && re.test(n.name);
				var f = el("div", {class: "frame" + (hit ? " match" : ""),
					"data-name": n.name, title: n.name}, n.name);
				f.style.left = (100 * x) + "%";
				f.style.width = (100 * w) + "%";
				f.style.top = (icicle ? d : rows - 1 - d) * ROW + "px";
				f.style.background = n === root ? "#ccc" : hue(n.name);
				f.onmouseover = function () {
					tip.textContent = n.name + "  " + pmc.num(n.value) + " (" +
						pmc.pct(n.value, root.value) + " of all)";
				};
				f.onclick = function () { shown = n; draw(); };
				box.appendChild(f);
				if (hit && !anc)
					matched += n.value;
				var kids = Object.keys(n.kids).map(function (k) { return n.kids[k]; });
				kids.sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name; });
				kids.forEach(function (k) {
					put(k, x, anc || hit);
					x += k.value / total;
				});
			}
			// The path above a zoomed frame stays, full width, dimmed.
			for (var a = shown.parent, d = base - 1; a; a = a.parent, d--) {
				var f = el("div", {class: "frame dim", "data-name": a.name}, a.name);
				f.style.left = "0";
				f.style.width = "100%";
				f.style.top = (icicle ? d - base : rows - 1 - (d - base)) * ROW + "px";
				(function (n) { f.onclick = function () { shown = n; draw(); }; })(a);
				box.appendChild(f);
			}
			put(shown, 0, false);
			found.textContent = re ? "matched: " + pmc.pct(matched, root.value) : "";
			var bw = box.clientWidth || 1;
			box.querySelectorAll(".frame").forEach(function (f) {
				f.setAttribute("data-width",
					(100 * f.getBoundingClientRect().width / bw).toFixed(2));
			});
		}
		search.oninput = draw;
		var tools = el("div", {class: "tools"},
			el("button", {id: "reset"}, "reset zoom"),
			el("button", {id: "icicle"}, icicle ? "flame view" : "icicle view"), search, found);
		tools.children[0].onclick = function () { shown = root; draw(); };
		tools.children[1].onclick = function () {
			icicle = !icicle;
			this.textContent = icicle ? "flame view" : "icicle view";
			draw();
		};
		var wrap = el("div", {}, tools, box, tip);
		return {node: wrap, draw: draw};
	}

	// Callees of function fn in event ev's stacks, by period: [[name, period], ...].
	function callees(ev, fn) {
		var by = {};
		ev.stacks.forEach(function (s) {
			var seen = {};
			for (var i = 2; i + 1 < s.length; i++)
				if (names[s[i]] === fn && !seen[s[i + 1]]) {
					seen[s[i + 1]] = 1;
					by[names[s[i + 1]]] = (by[names[s[i + 1]]] || 0) + s[0];
				}
		});
		return Object.keys(by).map(function (k) { return [k, by[k]]; })
			.sort(function (a, b) { return b[1] - a[1]; });
	}

	function top(ev) {
		var head = ["Self"].concat(D.children ? ["Children"] : [],
			["Samples", "Est. count", "Entry"]);
		var t = pmc.table(head, []);
		t.id = "top";
		ev.top.forEach(function (r) {
			var cells = [pmc.pct(r.period, ev.period)].concat(
				D.children ? [pmc.pct(r.children, ev.period)] : [],
				[pmc.num(r.samples), pmc.num(r.period)]);
			var tr = el("tr", {class: "row"});
			cells.forEach(function (c) { tr.appendChild(el("td", {}, c)); });
			tr.appendChild(el("td", {class: "name"}, r.key));
			var open = [];
			tr.onclick = function () {
				if (open.length) {
					open.forEach(function (o) { o.remove(); });
					open = [];
					return;
				}
				var after = tr;
				function add(dir, list) {
					list.slice(0, 16).forEach(function (c) {
						var sub = el("tr", {class: "sub"});
						sub.appendChild(el("td", {colspan: String(cells.length)},
							pmc.pct(c[1], r.period)));
						sub.appendChild(el("td", {class: "name"}, "  " + dir + " " + c[0]));
						after.after(sub);
						after = sub;
						open.push(sub);
					});
				}
				add("<-", r.callers.slice().sort(function (a, b) { return b[1] - a[1]; }));
				add("->", callees(ev, r.function));
				if (!open.length)
					add("  ", [["(no callers or callees: record call chains with -g)", 0]]);
			};
			t.appendChild(tr);
		});
		return t;
	}

	function dataViews(ev) {
		var views = [["By cache line", ev.cachelines], ["By data symbol", ev.dsyms],
			["By data source", ev.dsrcs]];
		if (!ev.cachelines.length)
			return null;
		var div = el("div", {id: "data"});
		views.forEach(function (v) {
			var rows = v[1].slice().sort(function (a, b) { return b[2] - a[2]; }).slice(0, 50);
			div.appendChild(el("h3", {}, v[0]));
			div.appendChild(pmc.table(["Share", "Samples", "Avg latency", "Where"],
				rows.map(function (r) {
					return [pmc.pct(r[2], ev.period), pmc.num(r[1]),
						(r[3] / r[1]).toFixed(1), r[0]];
				}), [3]));
		});
		return div;
	}

	function source() {
		var div = el("div", {id: "source"});
		if (!D.source.length)
			div.appendChild(el("p", {class: "note"}, "no sampled function"));
		D.source.forEach(function (fn) {
			div.appendChild(el("h3", {}, fn.function + " (" + fn.dso + "): " +
				pmc.count(fn.samples, "sample") + (fn.file ? ", " + fn.file : "")));
			if (fn.note)
				div.appendChild(el("p", {class: "note"}, fn.note));
			if (!fn.text)
				return;
			var at = {}, max = 1;
			fn.counts.forEach(function (c) { at[c[0]] = c[1]; max = Math.max(max, c[1]); });
			var t = el("table", {class: "src"});
			fn.text.forEach(function (line, i) {
				var no = fn.first + i, k = at[no] || 0;
				var bar = el("span", {class: "bar"});
				bar.style.width = Math.round(60 * k / max) + "px";
				var tr = el("tr", {}, el("td", {}, k ? pmc.num(k) : ""), el("td", {}, bar),
					el("td", {}, String(no)), el("td", {class: "text"}, line));
				if (k)
					tr.style.background = "rgba(220,40,40," + (0.08 + 0.35 * k / max) + ")";
				t.appendChild(tr);
			});
			div.appendChild(t);
		});
		return div;
	}

	function show() {
		var ev = D.events[cur], body = document.getElementById("event");
		body.textContent = "";
		body.appendChild(el("p", {class: "meta"}, "event " + ev.name + ": " +
			pmc.count(ev.samples, "sample") + ", " + (ev.exact ? "count " + pmc.num(ev.period) +
			" (period 1: every event was sampled)" : ev.interval ? "estimated count " +
			pmc.num(ev.period) + ", 95% interval [" + pmc.num(ev.interval[0]) + ", " +
			pmc.num(ev.interval[1]) + "]" : (ev.samples ? "sum of sample periods " +
			pmc.num(ev.period) + ", " : "") + ev.no_estimate) +
			(ev.imprecise ? " (imprecise: samples may land instructions after the one " +
			"that caused the event: skid)" : "")));
		body.appendChild(el("h2", {}, "Flame graph"));
		var fg = flame(ev);
		body.appendChild(fg.node);
		fg.draw();
		body.appendChild(el("h2", {}, "Top entries (click a row for callers and callees)"));
		body.appendChild(top(ev));
		var dv = dataViews(ev);
		if (dv) {
			body.appendChild(el("h2", {}, "Data addresses"));
			body.appendChild(dv);
		}
	}

	document.title = "pmc report of " + D.file;
	pmc.app.appendChild(el("h1", {}, "pmc report"));
	pmc.app.appendChild(el("p", {class: "meta"}, D.file + ": " + pmc.count(D.samples, "sample") +
		", " + pmc.num(D.lost) + " lost" + (D.reconstructed ? ", " +
		pmc.count(D.reconstructed, "data address", "data addresses") +
		" reconstructed from registers" : "")));
	var tabs = el("div", {class: "tabs"});
	D.events.forEach(function (ev, i) {
		var b = el("button", {class: i === cur ? "on" : ""}, ev.name);
		b.onclick = function () {
			cur = i;
			tabs.querySelectorAll("button").forEach(function (x, j) {
				x.className = j === i ? "on" : "";
			});
			show();
		};
		tabs.appendChild(b);
	});
	pmc.app.appendChild(tabs);
	pmc.app.appendChild(el("div", {id: "event"}));
	pmc.app.appendChild(el("h2", {}, "Source lines of the hottest functions (samples of every event)"));
	pmc.app.appendChild(source());
	if (D.events.length)
		show();
	else
		pmc.app.appendChild(el("p", {class: "note"}, "the file holds no events"));
	document.body.setAttribute("data-ready", "1");
})();
