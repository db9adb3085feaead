// Roofline (React + D3 peer): one chart, state in React, drawn by D3.
// Plain script, no JSX and no bundler: React, ReactDOM and d3 are globals
// from their UMD builds, loaded by index.html before this file.
(function () {
  'use strict';
  var h = React.createElement;
  var useState = React.useState;
  var useEffect = React.useEffect;
  var useRef = React.useRef;

  var WIDTH = 640;
  var HEIGHT = 400;
  var MARGIN = { top: 20, right: 20, bottom: 50, left: 70 };
  var I_MIN = 1e-1;
  var I_MAX = 1e4;
  var OP_INTENSITY = 240;
  var COLORS = ['#1f77b4', '#d62728'];

  function roof(peak, bw, i) {
    return Math.min(peak, bw * i);
  }

  function fmt(x) {
    return d3.format('.3~s')(x);
  }

  function drawChart(svgEl, peak, bws) {
    var svg = d3.select(svgEl);
    svg.selectAll('*').remove();
    var innerW = WIDTH - MARGIN.left - MARGIN.right;
    var innerH = HEIGHT - MARGIN.top - MARGIN.bottom;

    var yMax = peak * 4;
    var yMin = Math.min(peak, d3.min(bws, function (bw) { return bw * I_MIN; })) / 4;
    var x = d3.scaleLog().domain([I_MIN, I_MAX]).range([0, innerW]);
    var y = d3.scaleLog().domain([yMin, yMax]).range([innerH, 0]).nice();

    var g = svg.append('g').attr('transform', 'translate(' + MARGIN.left + ',' + MARGIN.top + ')');

    g.append('g')
      .attr('class', 'axis')
      .attr('transform', 'translate(0,' + innerH + ')')
      .call(d3.axisBottom(x).ticks(5, '~g'));
    g.append('g')
      .attr('class', 'axis')
      .call(d3.axisLeft(y).ticks(6, '.0e'));

    svg.append('text')
      .attr('x', MARGIN.left + innerW / 2)
      .attr('y', HEIGHT - 10)
      .attr('text-anchor', 'middle')
      .attr('font-size', 12)
      .text('Arithmetic intensity (FLOPs/byte)');
    svg.append('text')
      .attr('transform', 'translate(16,' + (MARGIN.top + innerH / 2) + ') rotate(-90)')
      .attr('text-anchor', 'middle')
      .attr('font-size', 12)
      .text('Performance (FLOP/s)');

    // The roof: the peak compute ceiling.
    g.append('line')
      .attr('x1', 0).attr('x2', innerW)
      .attr('y1', y(peak)).attr('y2', y(peak))
      .attr('stroke', '#888').attr('stroke-dasharray', '4 3');
    g.append('text')
      .attr('x', 4).attr('y', y(peak) - 5)
      .attr('font-size', 11).attr('fill', '#555')
      .text('peak ' + fmt(peak) + ' FLOP/s');

    // One line per bandwidth: min(peak, bw * I), sampled on a log grid plus
    // the ridge point so the corner is exact.
    var line = d3.line()
      .x(function (d) { return x(d[0]); })
      .y(function (d) { return y(d[1]); });
    bws.forEach(function (bw, k) {
      var pts = d3.range(0, 101).map(function (j) {
        return Math.pow(10, Math.log10(I_MIN) + (j / 100) * (Math.log10(I_MAX) - Math.log10(I_MIN)));
      });
      var ridge = peak / bw;
      if (ridge > I_MIN && ridge < I_MAX) pts.push(ridge);
      pts.sort(d3.ascending);
      g.append('path')
        .datum(pts.map(function (i) { return [i, roof(peak, bw, i)]; }))
        .attr('fill', 'none')
        .attr('stroke', COLORS[k])
        .attr('stroke-width', 2)
        .attr('d', line);
    });

    // The operation: intensity 240, attainable on the first (HBM) line.
    var opY = roof(peak, bws[0], OP_INTENSITY);
    g.append('circle')
      .attr('cx', x(OP_INTENSITY)).attr('cy', y(opY))
      .attr('r', 5).attr('fill', '#2ca02c').attr('stroke', '#fff');
    g.append('text')
      .attr('x', x(OP_INTENSITY) + 8).attr('y', y(opY) - 10)
      .attr('font-size', 11)
      .text('op @ I=' + OP_INTENSITY + ': ' + fmt(opY) + ' FLOP/s');

    // Legend.
    var labels = ['HBM ' + fmt(bws[0]) + ' B/s', 'BW2 ' + fmt(bws[1]) + ' B/s'];
    var legend = g.append('g').attr('transform', 'translate(' + (innerW - 150) + ',' + (innerH - 44) + ')');
    legend.append('rect')
      .attr('x', -6).attr('y', -12).attr('width', 150).attr('height', 42)
      .attr('fill', '#fff').attr('stroke', '#ccc');
    labels.forEach(function (label, k) {
      var row = legend.append('g').attr('transform', 'translate(0,' + k * 18 + ')');
      row.append('line').attr('x1', 0).attr('x2', 20).attr('y1', 0).attr('y2', 0)
        .attr('stroke', COLORS[k]).attr('stroke-width', 2);
      row.append('text').attr('x', 26).attr('y', 4).attr('font-size', 11).text(label);
    });
  }

  function NumberField(props) {
    return h('label', null,
      props.label,
      h('input', {
        type: 'number',
        value: props.value,
        step: 'any',
        min: 0,
        onChange: function (e) { props.onChange(e.target.value); }
      }));
  }

  function Roofline(props) {
    var ref = useRef(null);
    useEffect(function () {
      drawChart(ref.current, props.peak, [props.bw1, props.bw2]);
      performance.mark('roofline:drawn');
    }, [props.peak, props.bw1, props.bw2]);
    return h('svg', { ref: ref, width: WIDTH, height: HEIGHT, role: 'img', 'aria-label': 'Roofline chart' });
  }

  function valid(s) {
    var v = Number(s);
    return s !== '' && isFinite(v) && v > 0 ? v : null;
  }

  function App() {
    var peakS = useState('1.97e14');
    var bw1S = useState('8.2e11');
    var bw2S = useState('4.5e10');
    // Keep the last valid values so a half-typed number doesn't blank the chart.
    var last = useRef({ peak: 1.97e14, bw1: 8.2e11, bw2: 4.5e10 });
    var peak = valid(peakS[0]) || last.current.peak;
    var bw1 = valid(bw1S[0]) || last.current.bw1;
    var bw2 = valid(bw2S[0]) || last.current.bw2;
    last.current = { peak: peak, bw1: bw1, bw2: bw2 };

    return h('main', null,
      h('h1', null, 'Roofline (React + D3 peer)'),
      h('form', { onSubmit: function (e) { e.preventDefault(); } },
        h(NumberField, { label: 'Peak FLOP/s', value: peakS[0], onChange: peakS[1] }),
        h(NumberField, { label: 'HBM bandwidth (B/s)', value: bw1S[0], onChange: bw1S[1] }),
        h(NumberField, { label: 'Second bandwidth (B/s)', value: bw2S[0], onChange: bw2S[1] })),
      h(Roofline, { peak: peak, bw1: bw1, bw2: bw2 }));
  }

  ReactDOM.createRoot(document.getElementById('root')).render(h(App));
})();
