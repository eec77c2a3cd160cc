// SPDX-License-Identifier: MIT
// What both pages' scripts use. Names reach the page only through textContent and
// setAttribute of fixed attribute names: markup in a name stays text.
"use strict";
var pmc = {
	data: JSON.parse(document.getElementById("pmc-data").textContent),
	app: document.getElementById("app"),
	// el("td", {class: "name"}, "text", child...): a new element.
	el: function (tag, attrs) {
		var e = document.createElement(tag);
		for (var k in attrs || {})
			e.setAttribute(k, attrs[k]);
		for (var i = 2; i < arguments.length; i++) {
			var c = arguments[i];
			if (c === null || c === undefined)
				continue;
			e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
		}
		return e;
	},
	svg: function (tag, attrs) {
		var e = document.createElementNS("http://www.w3.org/2000/svg", tag);
		for (var k in attrs || {})
			e.setAttribute(k, attrs[k]);
		return e;
	},
	// "1 sample", "2 samples": a count and its noun, singular for exactly one.
	count: function (v, noun, plural) {
		return pmc.num(v) + " " + (v === 1 ? noun : plural || noun + "s");
	},
	pct: function (v, total) {
		return (total ? (100 * v) / total : 0).toFixed(2) + "%";
	},
	num: function (v) {
		if (typeof v !== "number" || !isFinite(v))
			return String(v);
		if (Math.abs(v) >= 1e15 || (v !== 0 && Math.abs(v) < 1e-3))
			return v.toExponential(4);
		return Number.isInteger(v) ? v.toLocaleString("en-US")
			: v.toLocaleString("en-US", {maximumFractionDigits: 4});
	},
	// A table: head is a list of column names, rows lists of cells (strings or elements);
	// columns named in left are left-aligned names.
	table: function (head, rows, left) {
		var t = pmc.el("table"), tr = pmc.el("tr");
		head.forEach(function (h) { tr.appendChild(pmc.el("th", {}, h)); });
		t.appendChild(tr);
		rows.forEach(function (r) {
			var row = pmc.el("tr");
			r.forEach(function (c, i) {
				row.appendChild(pmc.el("td", left && left.indexOf(i) >= 0 ?
					{class: "name"} : {}, c));
			});
			t.appendChild(row);
		});
		return t;
	}
};
