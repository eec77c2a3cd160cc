// SPDX-License-Identifier: MIT
pmc.app.appendChild(pmc.el("p", {}, "stat"));
