import { useNavigate } from "@tanstack/react-router";
import { type PointerEvent, useMemo, useRef, useState, type WheelEvent } from "react";
import { useTranslation } from "react-i18next";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import land110m from "world-atlas/land-110m.json";
import type { SiteMap } from "../../../schema/api/site-lists";
import { formatCount, localeFor } from "../../lib/format";

/*
 * The fleet on a map drawn offline: Natural Earth's land outlines at 1:110m (world-atlas, bundled
 * with this chunk) in an equirectangular projection, every site a point coloured by status.
 * Points closer than a cell on screen gather into one circle with their count, coloured by the
 * worst status among them; a click on it zooms in, a click on a site opens it.
 */

const WIDTH = 1000;
const HEIGHT = 500;
/** Points closer than this on screen (px of the 1000-wide map at zoom 1) gather into one circle. */
const CELL = 22;
const MAX_SCALE = 64;

const x = (longitude: number) => ((longitude + 180) / 360) * WIDTH;
const y = (latitude: number) => ((90 - latitude) / 180) * HEIGHT;

const STATUS_RANK = { fault: 0, offline: 1, online: 2 } as const;
const STATUS_COLOUR = { fault: "#dc2626", offline: "#64748b", online: "#059669" } as const;
type Status = keyof typeof STATUS_RANK;

/** The land as one SVG path, projected once. */
function landPath(): string {
  const topology = land110m as unknown as Topology<{ land: GeometryCollection }>;
  const land = feature(topology, topology.objects.land);
  const parts: string[] = [];
  for (const item of land.features) {
    const geometry = item.geometry;
    const polygons =
      geometry.type === "Polygon"
        ? [geometry.coordinates]
        : geometry.type === "MultiPolygon"
          ? geometry.coordinates
          : [];
    for (const polygon of polygons) {
      for (const ring of polygon) {
        // A ring that crosses the antimeridian (Antarctica, Chukotka, Fiji) is drawn in pieces: a
        // line from one edge of the map to the other would cross the whole world.
        let path = "";
        let broken = false;
        let previous: number | null = null;
        for (const [lon, lat] of ring as [number, number][]) {
          const jump = previous !== null && Math.abs(lon - previous) > 180;
          broken ||= jump;
          path += `${previous === null || jump ? "M" : "L"}${x(lon).toFixed(1)},${y(lat).toFixed(1)}`;
          previous = lon;
        }
        parts.push(broken ? path : `${path}Z`);
      }
    }
  }
  return parts.join("");
}

interface View {
  scale: number;
  /** The map point at the view's top left, in map units. */
  left: number;
  top: number;
}

interface Cluster {
  x: number;
  y: number;
  count: number;
  status: Status;
  /** The site's id when the cluster is one site. */
  id: string | null;
}

function clustersOf(map: SiteMap, view: View): Cluster[] {
  const cell = CELL / view.scale;
  const cells = new Map<string, Cluster & { sumX: number; sumY: number }>();
  const right = view.left + WIDTH / view.scale;
  const bottom = view.top + HEIGHT / view.scale;
  for (let i = 0; i < map.ids.length; i++) {
    const px = x(map.longitudes[i] as number);
    const py = y(map.latitudes[i] as number);
    if (px < view.left - cell || px > right + cell || py < view.top - cell || py > bottom + cell) continue;
    const key = `${Math.floor(px / cell)}|${Math.floor(py / cell)}`;
    const status = map.statuses[i] as Status;
    const found = cells.get(key);
    if (found) {
      found.count++;
      found.sumX += px;
      found.sumY += py;
      found.id = null;
      if (STATUS_RANK[status] < STATUS_RANK[found.status]) found.status = status;
    } else {
      cells.set(key, { x: px, y: py, sumX: px, sumY: py, count: 1, status, id: map.ids[i] as string });
    }
  }
  return [...cells.values()].map(({ sumX, sumY, ...cluster }) => ({
    ...cluster,
    x: sumX / cluster.count,
    y: sumY / cluster.count,
  }));
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

function clampView(view: View): View {
  const scale = clamp(view.scale, 1, MAX_SCALE);
  return {
    scale,
    left: clamp(view.left, 0, WIDTH - WIDTH / scale),
    top: clamp(view.top, 0, HEIGHT - HEIGHT / scale),
  };
}

/** Zooms by `factor` keeping the map point under (fx, fy) (fractions of the view) in place. */
function zoomed(view: View, factor: number, fx = 0.5, fy = 0.5): View {
  const scale = clamp(view.scale * factor, 1, MAX_SCALE);
  const pointX = view.left + (fx * WIDTH) / view.scale;
  const pointY = view.top + (fy * HEIGHT) / view.scale;
  return clampView({ scale, left: pointX - (fx * WIDTH) / scale, top: pointY - (fy * HEIGHT) / scale });
}

export function FleetMap({ map }: { map: SiteMap }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const navigate = useNavigate();
  const land = useMemo(landPath, []);
  const [view, setView] = useState<View>({ scale: 1, left: 0, top: 0 });
  const clusters = useMemo(() => clustersOf(map, view), [map, view]);
  const svg = useRef<SVGSVGElement | null>(null);
  const drag = useRef<{ x: number; y: number; view: View; moved: boolean } | null>(null);

  const fraction = (clientX: number, clientY: number) => {
    const box = svg.current?.getBoundingClientRect();
    if (!box || box.width === 0) return { fx: 0.5, fy: 0.5 };
    return { fx: (clientX - box.left) / box.width, fy: (clientY - box.top) / box.height };
  };
  const onWheel = (event: WheelEvent<SVGSVGElement>) => {
    const { fx, fy } = fraction(event.clientX, event.clientY);
    setView((current) => zoomed(current, event.deltaY < 0 ? 1.5 : 1 / 1.5, fx, fy));
  };
  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    drag.current = { x: event.clientX, y: event.clientY, view, moved: false };
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const start = drag.current;
    const box = svg.current?.getBoundingClientRect();
    if (!start || !box || box.width === 0) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) start.moved = true;
    if (!start.moved) return;
    const unitsPerPixel = WIDTH / start.view.scale / box.width;
    setView(
      clampView({
        scale: start.view.scale,
        left: start.view.left - dx * unitsPerPixel,
        top: start.view.top - dy * unitsPerPixel,
      }),
    );
  };
  const endDrag = () => {
    // A drag's end is no click on what lies under it.
    setTimeout(() => {
      drag.current = null;
    }, 0);
  };
  const clicked = (cluster: Cluster) => {
    if (drag.current?.moved) return;
    if (cluster.id) {
      void navigate({ to: "/app/analytics/$siteId", params: { siteId: cluster.id } });
      return;
    }
    const fx = (cluster.x - view.left) / (WIDTH / view.scale);
    const fy = (cluster.y - view.top) / (HEIGHT / view.scale);
    setView((current) => zoomed(current, 4, fx, fy));
  };
  const button =
    "rounded-tremor-default border border-tremor-border bg-tremor-background px-2.5 py-1 text-tremor-default text-tremor-content-emphasis shadow-tremor-input";
  const radius = (count: number) => (count === 1 ? 4 : 7 + Math.min(11, Math.log2(count) * 1.6)) / view.scale;
  const shownCount = clusters.reduce((sum, cluster) => sum + cluster.count, 0);

  return (
    <figure className="space-y-2">
      <div className="relative overflow-hidden rounded-tremor-default border border-tremor-border bg-sky-50">
        <svg
          ref={svg}
          role="img"
          aria-label={t("fleetLists.map.shown", {
            count: map.total,
            formatted: formatCount(map.total, locale),
          })}
          data-sites-shown={shownCount}
          viewBox={`${view.left} ${view.top} ${WIDTH / view.scale} ${HEIGHT / view.scale}`}
          className="block h-auto w-full touch-none select-none"
          onWheel={onWheel}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerLeave={endDrag}
        >
          <path d={land} fill="#e2e8f0" stroke="#94a3b8" strokeWidth={0.5 / view.scale} />
          {clusters.map((cluster) => {
            const statusName = t(`fleetLists.statuses.${cluster.status}`);
            return (
              // biome-ignore lint/a11y/useSemanticElements: an SVG shape has no button element; it takes the role and keys.
              <g
                key={cluster.id ?? `${cluster.x.toFixed(2)}|${cluster.y.toFixed(2)}`}
                role="button"
                tabIndex={0}
                data-site-count={cluster.count}
                data-status={cluster.status}
                aria-label={
                  cluster.id
                    ? t("fleetLists.map.site", { status: statusName })
                    : t("fleetLists.map.cluster", { count: cluster.count })
                }
                className="cursor-pointer focus:outline-none"
                onClick={() => clicked(cluster)}
                onKeyDown={(event) => {
                  if (event.key === "Enter" || event.key === " ") clicked(cluster);
                }}
              >
                <circle
                  cx={cluster.x}
                  cy={cluster.y}
                  r={radius(cluster.count)}
                  fill={STATUS_COLOUR[cluster.status]}
                  fillOpacity={cluster.count === 1 ? 0.9 : 0.8}
                  stroke="#ffffff"
                  strokeWidth={1 / view.scale}
                />
                {cluster.count > 1 ? (
                  <text
                    x={cluster.x}
                    y={cluster.y}
                    dy="0.35em"
                    textAnchor="middle"
                    fontSize={9 / view.scale}
                    fontWeight={600}
                    fill="#ffffff"
                    pointerEvents="none"
                  >
                    {cluster.count >= 1000 ? `${Math.round(cluster.count / 100) / 10}k` : cluster.count}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
        <div className="absolute right-2 top-2 flex flex-col gap-1">
          <button
            type="button"
            className={button}
            aria-label={t("fleetLists.map.zoomIn")}
            onClick={() => setView((v) => zoomed(v, 2))}
          >
            +
          </button>
          <button
            type="button"
            className={button}
            aria-label={t("fleetLists.map.zoomOut")}
            onClick={() => setView((v) => zoomed(v, 0.5))}
          >
            −
          </button>
          <button type="button" className={button} onClick={() => setView({ scale: 1, left: 0, top: 0 })}>
            {t("fleetLists.map.reset")}
          </button>
        </div>
      </div>
      <figcaption className="flex flex-wrap items-center gap-4 text-tremor-label text-tremor-content">
        {(Object.keys(STATUS_COLOUR) as Status[]).map((status) => (
          <span key={status} className="inline-flex items-center gap-1.5">
            <span className="h-2.5 w-2.5 rounded-full" style={{ background: STATUS_COLOUR[status] }} />
            {t(`fleetLists.statuses.${status}`)}
          </span>
        ))}
        <span>{t("fleetLists.map.withoutPlace")}</span>
      </figcaption>
    </figure>
  );
}
