// SPDX-License-Identifier: MIT
// pmc stat's page: each event with its mean, its confidence interval as an error bar and each
// repetition as a dot; each metric (when the results have them) with its value, its interval as
// an error bar, each repetition's value as a dot (a per-repetition interval) and its
// threshold's verdict; the same per region.
(function () {
	var D = pmc.data, el = pmc.el, P = D.provenance || {};
	var W = 520, H = 46, PAD = 14;

	// One chart: the repetitions' values as dots (a metric has them when its interval is taken
	// over them), mean and interval on one linear scale.
	function chart(s) {
		var vals = (s.values || []).filter(function (v) { return typeof v === "number"; });
		var svg = pmc.svg("svg", {width: W, height: H, class: "chart",
			"data-name": s.name, "data-n": String(vals.length)});
		if (typeof s.mean !== "number" || (!vals.length && !s.metric))
			return svg;
		var ci = typeof s.ci === "number" ? s.ci : 0, lo = s.mean - ci, hi = s.mean + ci;
		var min = Math.min(lo, Math.min.apply(null, vals));
		var max = Math.max(hi, Math.max.apply(null, vals));
		// Equal, or apart only by rounding (an interval of 1e-16 around a ratio): a range of its own.
		if (max - min <= Math.abs(max) * 1e-12) {
			var d = Math.abs(max) * 0.01 || 1;
			min -= d;
			max += d;
		}
		var x = function (v) { return PAD + (W - 2 * PAD) * (v - min) / (max - min); };
		svg.appendChild(pmc.svg("line", {x1: PAD, x2: W - PAD, y1: H - 12, y2: H - 12,
			stroke: "#bbb"}));
		var bar = pmc.svg("line", {class: "ci", x1: x(lo), x2: x(hi), y1: 16, y2: 16,
			stroke: "#c33", "stroke-width": 2, "data-lo": String(lo), "data-hi": String(hi)});
		svg.appendChild(bar);
		[lo, hi].forEach(function (v) {
			svg.appendChild(pmc.svg("line", {x1: x(v), x2: x(v), y1: 10, y2: 22,
				stroke: "#c33", "stroke-width": 2}));
		});
		svg.appendChild(pmc.svg("rect", {class: "mean", x: x(s.mean) - 1.5, y: 6, width: 3,
			height: 20, fill: "#222", "data-value": String(s.mean)}));
		vals.forEach(function (v, i) {
			svg.appendChild(pmc.svg("circle", {class: "rep", cx: x(v),
				cy: 30 + (i % 3) * 2, r: 3, fill: "rgba(30,90,200,0.6)",
				"data-value": String(v)}));
		});
		[[min, "start"], [max, "end"]].forEach(function (a) {
			var t = pmc.svg("text", {x: a[1] === "start" ? PAD : W - PAD, y: H - 1,
				"text-anchor": a[1]});
			t.textContent = pmc.num(a[0]);
			svg.appendChild(t);
		});
		return svg;
	}

	function stats(list, label) {
		var t = el("table", {class: "stats"});
		t.appendChild(el("tr", {}, el("th", {}, label), el("th", {}, "Mean"),
			el("th", {}, "\u00b1 interval"), el("th", {}, "Runs"),
			el("th", {}, "Mean, interval (bar) and each run (dots)")));
		list.forEach(function (s) {
			var why = s.supported === false ? (s.reason || "not supported") : null;
			t.appendChild(el("tr", {},
				el("td", {class: "name"}, s.name),
				el("td", {}, why ? "" : pmc.num(s.mean)),
				el("td", {}, why || typeof s.ci !== "number" ? "" : pmc.num(s.ci) +
					" (" + (s.ci_pct || 0).toFixed(2) + "%)"),
				el("td", {}, String((s.values || []).length)),
				el("td", {}, why ? el("span", {class: "note"}, why) : chart(s),
					s.overhead_clamped ? el("span", {class: "note"}, "overhead " +
						"larger than the count in " + s.overhead_clamped + " of " +
						(s.values || []).length + " runs: counted as 0") : null)));
		});
		return t;
	}

	// The metrics of one scope: value and unit, interval and how it was taken, the runs, the
	// threshold (in the metric's unit: threshold_shown) and toplev's "<==" when it holds, the
	// chart of the value and its interval.
	function metrics(list) {
		var t = el("table", {class: "stats metrics"});
		t.appendChild(el("tr", {}, el("th", {}, "Metric"), el("th", {}, "Value"),
			el("th", {}, "\u00b1 interval"), el("th", {}, "Runs"),
			el("th", {}, "Threshold"),
			el("th", {}, "Value, interval (bar) and each run's value (dots)")));
		list.forEach(function (m) {
			var ok = typeof m.value === "number", unit = m.unit ? " " + m.unit : "";
			var why = ok ? null : (m.reason || m.status || "no value");
			var exact = typeof m.exact === "number" ? " (exact " + pmc.num(m.exact) + ")" : "";
			t.appendChild(el("tr", {class: "metric", "data-name": m.name,
				"data-value": ok ? String(m.value) : "", "data-flagged": String(m.flagged)},
				el("td", {class: "name"}, m.name),
				el("td", {class: "value"}, ok ? pmc.num(m.value) + unit + exact : ""),
				el("td", {}, !ok || typeof m.ci !== "number" ? "" : pmc.num(m.ci) +
					" (" + (m.ci_pct || 0).toFixed(2) + "%, " + m.method + ")"),
				el("td", {}, String(m.n || 0)),
				el("td", {class: "threshold"}, (m.threshold_shown || m.threshold || "") +
					(m.flagged === true ? " <== holds" : "")),
				el("td", {}, why ? el("span", {class: "note"}, m.status + ": " + why) :
					chart({name: m.name, mean: m.value, ci: m.ci, values: m.values,
						metric: true}))));
		});
		return t;
	}

	document.title = "pmc stat of " + (P.command || []).join(" ");
	pmc.app.appendChild(el("h1", {}, "pmc stat"));
	pmc.app.appendChild(el("p", {class: "meta"}, (P.command || []).join(" ")));
	pmc.app.appendChild(el("p", {class: "meta"}, "backend " + P.backend + ", " +
		pmc.count(P.repetitions, "run") + ", " + Math.round(100 * (P.confidence || 0)) +
		" % confidence intervals (Student's t), " + (P.cpu_model || "") + ", pmc " +
		P.pmc_version));
	pmc.app.appendChild(el("h2", {}, "Events"));
	pmc.app.appendChild(stats(D.events || [], "Event"));
	if (Array.isArray(D.metrics) && D.metrics.length) {
		pmc.app.appendChild(el("h2", {}, "Metrics"));
		pmc.app.appendChild(metrics(D.metrics));
	}
	// A scope's events, then its metrics when it has any.
	function scope(s) {
		pmc.app.appendChild(stats(s.events || [], "Event"));
		if (Array.isArray(s.metrics) && s.metrics.length)
			pmc.app.appendChild(metrics(s.metrics));
	}

	(D.regions || []).forEach(function (r) {
		pmc.app.appendChild(el("h2", {class: "region"}, "Region " + r.name));
		pmc.app.appendChild(el("p", {class: "meta"}, "entered " +
			pmc.count(r.entered, "time") + ", exited " + pmc.count(r.exited, "time")));
		scope(r);
		(r.threads || []).forEach(function (t) {
			pmc.app.appendChild(el("h3", {class: "region-thread"}, "Region " + r.name +
				", thread " + t.thread));
			scope(t);
		});
	});
	// The units of -A, --per-core, --per-socket and --per-thread: each one's own values.
	(D.units || []).forEach(function (u) {
		pmc.app.appendChild(el("h2", {class: "unit"}, (u.tid >= 0 ? "Thread " : "") + u.label));
		scope(u);
	});
	document.body.setAttribute("data-ready", "1");
})();
