/* global window, document -- a browser script, served as it is under /static */
// Draws the page's chart with Chart.js from the configuration the server put in #chart-data: the same
// configuration the bot's PNG renderer draws, made responsive for the browser. No inline script anywhere.
(function drawChart() {
	'use strict';
	var data = document.getElementById('chart-data');
	var canvas = document.getElementById('chart');
	if (!data || !canvas || typeof window.Chart !== 'function') return;
	var parsed = JSON.parse(data.textContent || '{}');
	var config = parsed.config;
	if (!config) return;
	config.options = config.options || {};
	config.options.responsive = true;
	config.options.maintainAspectRatio = false;
	delete config.options.devicePixelRatio;
	// The PNG's type sizes are for an 800 px picture that Discord shows smaller; a phone gets smaller ones.
	if (window.matchMedia && window.matchMedia('(max-width: 600px)').matches) {
		shrinkFonts(config.options, 0.7);
	}
	new window.Chart(canvas, config);
	canvas.setAttribute('data-drawn', 'true');

	function shrinkFonts(node, factor) {
		if (!node || typeof node !== 'object') return;
		Object.keys(node).forEach(function (key) {
			var value = node[key];
			if (key === 'font' && value && typeof value.size === 'number') value.size = Math.round(value.size * factor);
			else shrinkFonts(value, factor);
		});
	}
})();
