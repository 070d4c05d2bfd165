// SPDX-License-Identifier: GPL-2.0-only
//
// Issue 33, as a browser lays the page out: appended to a copy of a
// pcptop page by t_text_boxes (tests/lib.sh), it takes the box of every
// <text> of every <svg> (getBoundingClientRect: rotation and the font's
// ascent and descent included) and writes, into a <pre> that --dump-dom
// prints, a line per chart and per fault, each at a line's start:
//   TB chart LABEL texts=N
//   TB over LABEL: "A" [l t r b] "B" [l t r b]
//   TB out LABEL: "A" [l t r b] svg [l t r b]
//   TB done charts=N faults=N
// tests/unit/svgtext.c checks the same from the SVG's attributes alone.
(function () {
	// less than this in both directions is two boxes touching, not over
	const SLACK = 0.5;
	const out = [];
	let charts = 0, faults = 0;
	const box = (r) => '[' + [r.left, r.top, r.right, r.bottom]
		.map((v) => v.toFixed(1)).join(' ') + ']';

	document.querySelectorAll('svg').forEach(function (svg) {
		const label = svg.getAttribute('aria-label') || '(no aria-label)';
		const s = svg.getBoundingClientRect();
		const texts = [];

		svg.querySelectorAll('text').forEach(function (t) {
			const r = t.getBoundingClientRect();

			if (t.textContent.length && r.width > 0)
				texts.push({ s: t.textContent, r: r });
		});
		charts++;
		out.push('TB chart ' + label + ' texts=' + texts.length);
		texts.forEach(function (a, i) {
			if (a.r.left < s.left - SLACK || a.r.top < s.top - SLACK ||
			    a.r.right > s.right + SLACK ||
			    a.r.bottom > s.bottom + SLACK) {
				faults++;
				out.push('TB out ' + label + ': "' + a.s + '" ' +
					 box(a.r) + ' svg ' + box(s));
			}
			texts.slice(i + 1).forEach(function (b) {
				const w = Math.min(a.r.right, b.r.right) -
					  Math.max(a.r.left, b.r.left);
				const h = Math.min(a.r.bottom, b.r.bottom) -
					  Math.max(a.r.top, b.r.top);

				if (w > SLACK && h > SLACK) {
					faults++;
					out.push('TB over ' + label + ': "' + a.s +
						 '" ' + box(a.r) + ' "' + b.s +
						 '" ' + box(b.r));
				}
			});
		});
	});
	out.push('TB done charts=' + charts + ' faults=' + faults);
	const pre = document.createElement('pre');
	pre.id = 'textboxes';
	pre.textContent = '\n' + out.join('\n') + '\n';
	document.body.appendChild(pre);
})();
