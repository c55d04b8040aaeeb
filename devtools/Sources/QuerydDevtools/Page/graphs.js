// Live graphs on canvases, from each server.stats reading: requests/s and pushes/s (from the daemon's counters),
// connections, queries, in-flight fetches and memory. The last 120 samples of each.

const SAMPLES = 120;
const requests = (stats) => Object.values(stats.methods || {}).reduce((sum, method) => sum + method.requests, 0);
const SERIES = [
  { name: "requests/s", rate: requests },
  { name: "pushes/s", rate: (stats) => stats.pushes ?? 0 },
  { name: "connections", value: (stats) => stats.connections },
  { name: "queries", value: (stats) => stats.queries },
  { name: "in-flight fetches", value: (stats) => stats.inFlightFetches },
  { name: "memory MiB", value: (stats) => (stats.memory?.rssBytes || 0) / 1048576 },
];

export class Graphs {
  constructor(container) {
    this.series = SERIES.map((series) => {
      const figure = document.createElement("figure");
      const canvas = document.createElement("canvas");
      canvas.width = 220;
      canvas.height = 60;
      const caption = document.createElement("figcaption");
      figure.append(canvas, caption);
      container.append(figure);
      const drawn = { ...series, canvas, caption, points: [], last: null };
      draw(drawn);
      return drawn;
    });
  }

  /** Adds the reading `stats` taken at `time` (ms). A rate is the counter's growth per second since the last
   * reading (none for the first, or when the counter went back: a restarted daemon). */
  add(time, stats) {
    for (const series of this.series) {
      if (series.rate) {
        const count = series.rate(stats);
        const last = series.last;
        series.last = { time, count };
        if (!last || count < last.count || time <= last.time) continue;
        series.points.push(((count - last.count) * 1000) / (time - last.time));
      } else {
        series.points.push(series.value(stats) ?? 0);
      }
      if (series.points.length > SAMPLES) series.points.shift();
      draw(series);
    }
  }
}

function draw({ canvas, caption, points, name }) {
  const context = canvas.getContext("2d");
  const { width, height } = canvas;
  const top = Math.max(1, ...points);
  context.clearRect(0, 0, width, height);
  context.strokeStyle = "#3f4b5c";
  context.strokeRect(0.5, 0.5, width - 1, height - 1);
  context.beginPath();
  points.forEach((point, index) => {
    const x = width - 1 - ((points.length - 1 - index) / (SAMPLES - 1)) * (width - 2);  // newest at the right
    const y = height - 2 - (point / top) * (height - 6);
    if (index === 0) context.moveTo(x, y);
    else context.lineTo(x, y);
  });
  context.strokeStyle = "#49a4f8";
  context.lineWidth = 1.5;
  context.stroke();
  const last = points[points.length - 1] ?? 0;
  caption.textContent = `${name}: ${Number.isInteger(last) ? last : last.toFixed(1)} (max ${Number.isInteger(top) ? top : top.toFixed(1)})`;
}
