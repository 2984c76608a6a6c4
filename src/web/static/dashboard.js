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

(function drawGoals() {
	'use strict';
	// Each goal: the progress so far, then the forecast with its band (filled between low and high) to the period's end.
	if (typeof window.Chart !== 'function') return;
	Array.prototype.forEach.call(document.querySelectorAll('script.goal-data'), function (data) {
		var canvas = document.getElementById(data.getAttribute('data-canvas'));
		if (!canvas) return;
		var goal = JSON.parse(data.textContent || '{}');
		var flat = function (value) {
			return goal.dates.map(function () {
				return value;
			});
		};
		var datasets = [
			{ label: goal.labels.progress, data: goal.progress, borderColor: '#5865f2', backgroundColor: '#5865f2' },
			{
				label: goal.labels.target,
				data: flat(goal.target),
				borderColor: '#3ba55c',
				borderDash: [6, 4],
				pointRadius: 0,
			},
		];
		if (goal.expected.length > 0) {
			datasets.push(
				{
					label: goal.labels.forecast,
					data: goal.expected,
					borderColor: '#f0a020',
					borderDash: [4, 4],
					pointRadius: 0,
				},
				{ label: goal.labels.band, data: goal.high, borderColor: 'rgba(240,160,32,0.2)', pointRadius: 0, fill: false },
				{
					label: goal.labels.band + ' ',
					data: goal.low,
					borderColor: 'rgba(240,160,32,0.2)',
					backgroundColor: 'rgba(240,160,32,0.25)',
					pointRadius: 0,
					fill: '-1',
				},
			);
		}
		new window.Chart(canvas, {
			type: 'line',
			data: { labels: goal.dates, datasets: datasets },
			options: {
				responsive: true,
				maintainAspectRatio: false,
				animation: false,
				plugins: {
					title: { display: true, text: goal.label },
					legend: {
						labels: {
							filter: function (item) {
								return item.text.slice(-1) !== ' ';
							},
						},
					},
				},
				scales: { y: { beginAtZero: true } },
			},
		});
		canvas.setAttribute('data-drawn', 'true');
	});
})();
