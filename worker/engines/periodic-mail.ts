import { DateTime } from "luxon";
import type { Language } from "../../schema/domain";
import { hasPeriodMail, listPeriodicRecipients, type MailRecipient } from "../data/notification-mail";
import type { Env } from "../env";
import { toCsv } from "../lib/csv";
import type { Db } from "../lib/db";
import { renderMail } from "../mail/layout";
import { mailOrigin, unsubscribeUrl } from "../mail/links";
import type { MailAttachment } from "../mail/mailer";
import { formatMailEnergy, formatMailMoney, formatMailPercent, mailMessages } from "../mail/messages";
import { deliverMail, queueMail } from "../mail/outbox";
import { type FleetLosses, fleetLosses } from "./fleet-losses";
import { buildFleetReport, type FleetReport, type SiteFigures } from "./fleet-report";

export const DIGEST_KIND = "weekly_digest";
export const REPORT_KIND = "monthly_report";
/** Local hour from which the digest (Mondays) and the report (the 1st) go out. */
export const SEND_HOUR = 8;

export interface MailPeriod {
  /** `2026-W47` or `2026-11`: at most one mail per user, kind and key. */
  key: string;
  start: DateTime;
  end: DateTime;
}

const validZone = (zone: string) => (DateTime.local().setZone(zone).isValid ? zone : "UTC");

/** The week a digest due at `now` in `zone` covers: from Monday 08:00 on, the week before. */
export function dueDigestWeek(now: number, zone: string): MailPeriod | null {
  const local = DateTime.fromMillis(now, { zone: validZone(zone) });
  if (local.weekday !== 1 || local.hour < SEND_HOUR) return null;
  const end = local.startOf("week");
  const start = end.minus({ weeks: 1 });
  return { key: `${start.weekYear}-W${String(start.weekNumber).padStart(2, "0")}`, start, end };
}

/** The month a report due at `now` in `zone` covers: from the 1st 08:00 on, the month before. */
export function dueReportMonth(now: number, zone: string): MailPeriod | null {
  const local = DateTime.fromMillis(now, { zone: validZone(zone) });
  if (local.day !== 1 || local.hour < SEND_HOUR) return null;
  const end = local.startOf("month");
  const start = end.minus({ months: 1 });
  return { key: start.toFormat("yyyy-MM"), start, end };
}

const pr = (value: number | null, language: Language, none: string) =>
  value === null ? none : formatMailPercent(value, language);

function siteRow(site: SiteFigures, language: Language, none: string, withAvailability: boolean) {
  return [
    site.siteName,
    formatMailEnergy(site.energyWh, language),
    site.expectedWh > 0 ? formatMailEnergy(site.expectedWh, language) : none,
    pr(site.performanceRatio, language, none),
    ...(withAvailability ? [pr(site.availability, language, none)] : []),
    formatMailEnergy(site.lostEnergyWh, language),
  ];
}

function digestContent(
  recipient: MailRecipient,
  period: MailPeriod,
  report: FleetReport,
  unsubscribe: string,
  origin: string,
) {
  const { language } = recipient;
  const words = mailMessages[language];
  const none = words.noData;
  const c = words.columns;
  const day = (d: DateTime) => d.setLocale(language).toLocaleString(DateTime.DATE_MED);
  const from = day(period.start);
  const to = day(period.end.minus({ days: 1 }));
  const subject = words.digestSubject(from, to);
  return {
    subject,
    ...renderMail(language, subject, {
      paragraphs: [
        words.digestIntro(from, to),
        words.alertCounts(report.alertsOpened, report.alertsClosed),
        words.energyLost(formatMailEnergy(report.lostEnergyWh, language)),
        words.timesIn(period.start.zoneName ?? "UTC"),
      ],
      tables: [
        {
          caption: words.portfolios,
          header: [c.name, c.energy, c.expected, c.pr],
          rows: report.portfolios.map((p) => [
            p.portfolioName,
            formatMailEnergy(p.energyWh, language),
            p.expectedWh > 0 ? formatMailEnergy(p.expectedWh, language) : none,
            pr(p.performanceRatio, language, none),
          ]),
        },
        {
          caption: words.sites,
          header: [c.name, c.energy, c.expected, c.pr, c.lost],
          rows: report.sites.map((s) => siteRow(s, language, none, false)),
        },
        {
          caption: words.worst,
          header: [c.name, c.energy, c.expected, c.pr, c.lost],
          rows: report.worst.map((s) => siteRow(s, language, none, false)),
        },
      ].filter((table) => table.rows.length > 0),
      action: { label: words.openFleet, url: `${origin}/app/dashboard` },
      unsubscribe: { label: words.unsubscribeDigest, url: unsubscribe },
    }),
  };
}

/**
 * The monthly report's CSV: one row per site (UTF-8 with BOM, as every export), with its loss
 * account: what it lost (kWh), its value in the report's currency and the main cause.
 */
export const monthlyReportCsv = (month: string, report: FleetReport, losses: FleetLosses) => {
  const accounts = new Map(losses.sites.map((site) => [site.siteId, site]));
  return toCsv(
    [
      "month",
      "site id",
      "site",
      "energy (Wh)",
      "expected (Wh)",
      "performance ratio",
      "availability",
      "energy lost (Wh)",
      "losses (kWh)",
      "lost value",
      "currency",
      "main cause",
    ],
    report.sites.map((s) => {
      const account = accounts.get(s.siteId);
      return [
        month,
        s.siteId,
        s.siteName,
        Math.round(s.energyWh),
        Math.round(s.expectedWh),
        s.performanceRatio,
        s.availability,
        Math.round(s.lostEnergyWh),
        account?.lostKwh ?? null,
        account?.lostValue ?? null,
        account?.lostValue == null ? null : losses.currency,
        account?.mainCause ?? null,
      ];
    }),
  );
};

/** How many of the sites that lost most the report's table names; the CSV holds every site. */
export const REPORT_LOSS_SITES = 10;

/** The report's losses section: the fleet's losses, their value, the recoverable part, the weather beside. */
function lossesSection(losses: FleetLosses, language: Language) {
  const words = mailMessages[language];
  if (losses.expectedKwh <= 0) return { paragraphs: [words.lossesNone], tables: [] };
  const energy = (kwh: number) => formatMailEnergy(kwh * 1000, language);
  const share = (kwh: number) => formatMailPercent(kwh / losses.expectedKwh, language);
  const money = (amount: number | null) =>
    amount === null || losses.currency === null
      ? words.noData
      : formatMailMoney(amount, losses.currency, language);
  const paragraphs = [
    words.lossesSummary(energy(losses.lostKwh), share(losses.lostKwh), energy(losses.expectedKwh)),
    words.lossesRecoverable(energy(losses.recoverableKwh), share(losses.recoverableKwh)),
    losses.currency !== null && losses.lostValue !== null
      ? words.lossesValue(money(losses.lostValue))
      : words.lossesNoPrice,
    ...(losses.weatherKwh > 0 ? [words.lossesWeather(energy(losses.weatherKwh))] : []),
  ];
  const lost = losses.sites.filter((site) => site.lostKwh > 0);
  const shown = lost.slice(0, REPORT_LOSS_SITES);
  const c = words.lossColumns;
  const tables =
    shown.length === 0
      ? []
      : [
          {
            caption:
              lost.length > shown.length
                ? `${words.lossesBySite} (${words.lossesMore(lost.length - shown.length)})`
                : words.lossesBySite,
            header: [c.site, c.lost, c.value, c.cause],
            rows: shown.map((site) => [
              site.siteName,
              energy(site.lostKwh),
              money(site.lostValue),
              site.mainCause ? words.lossCategory[site.mainCause] : words.noData,
            ]),
          },
        ];
  return { paragraphs, tables };
}

function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function reportContent(
  recipient: MailRecipient,
  period: MailPeriod,
  report: FleetReport,
  losses: FleetLosses,
  unsubscribe: string,
  origin: string,
) {
  const { language } = recipient;
  const words = mailMessages[language];
  const c = words.columns;
  const month = period.start.setLocale(language).toFormat("LLLL yyyy");
  const subject = words.reportSubject(month);
  const attachment: MailAttachment = {
    filename: `sunfleet-report-${period.key}.csv`,
    content: base64Utf8(monthlyReportCsv(period.key, report, losses)),
  };
  const lossesPart = lossesSection(losses, language);
  return {
    subject,
    attachments: [attachment],
    ...renderMail(language, subject, {
      paragraphs: [
        words.reportIntro(month),
        words.alertCounts(report.alertsOpened, report.alertsClosed),
        words.energyLost(formatMailEnergy(report.lostEnergyWh, language)),
        ...lossesPart.paragraphs,
      ],
      tables: [
        {
          caption: words.sites,
          header: [c.name, c.energy, c.expected, c.pr, c.availability, c.lost],
          rows: report.sites.map((s) => siteRow(s, language, words.noData, true)),
        },
        ...lossesPart.tables,
      ],
      action: { label: words.openFleet, url: `${origin}/app/dashboard` },
      unsubscribe: { label: words.unsubscribeReport, url: unsubscribe },
    }),
  };
}

/**
 * The cron's pass for digests and reports: each member whose preference is on gets last week's
 * digest from Monday 08:00 and last month's report from the 1st 08:00 in their own zone, once
 * per period (the outbox's unique period key makes a repeat run queue nothing).
 */
export async function sendPeriodicMail({ env, db, now }: { env: Env; db: Db; now: number }) {
  const reports = new Map<string, Promise<FleetReport>>();
  const reportOf = (orgId: string, period: MailPeriod) => {
    const key = `${orgId}|${period.start.toMillis()}|${period.end.toMillis()}`;
    let report = reports.get(key);
    if (!report) {
      report = buildFleetReport({ db, env }, orgId, {
        fromMs: period.start.toMillis(),
        toMs: period.end.toMillis(),
        fromDate: period.start.toISODate() ?? "",
        toDate: period.end.minus({ days: 1 }).toISODate() ?? "",
      });
      reports.set(key, report);
    }
    return report;
  };
  const lossAccounts = new Map<string, Promise<FleetLosses>>();
  const lossesOf = (orgId: string, period: MailPeriod) => {
    const from = period.start.toISODate() ?? "";
    const to = period.end.minus({ days: 1 }).toISODate() ?? "";
    const key = `${orgId}|${from}|${to}`;
    let losses = lossAccounts.get(key);
    if (!losses) {
      losses = fleetLosses({ db, env }, orgId, from, to);
      lossAccounts.set(key, losses);
    }
    return losses;
  };
  const queued: string[] = [];
  const origin = mailOrigin(env);
  for (const recipient of await listPeriodicRecipients(db)) {
    const due = [
      recipient.weeklyDigest ? { kind: DIGEST_KIND, period: dueDigestWeek(now, recipient.timezone) } : null,
      recipient.monthlyReports
        ? { kind: REPORT_KIND, period: dueReportMonth(now, recipient.timezone) }
        : null,
    ];
    for (const item of due) {
      if (!item?.period || (await hasPeriodMail(db, recipient.id, item.kind, item.period.key))) continue;
      const { period, kind } = item;
      const report = await reportOf(recipient.orgId, period);
      const content =
        kind === DIGEST_KIND
          ? digestContent(
              recipient,
              period,
              report,
              await unsubscribeUrl(env, recipient.id, "weeklyDigest", now),
              origin,
            )
          : reportContent(
              recipient,
              period,
              report,
              await lossesOf(recipient.orgId, period),
              await unsubscribeUrl(env, recipient.id, "monthlyReports", now),
              origin,
            );
      const mail = queueMail(
        db,
        {
          kind,
          orgId: recipient.orgId,
          userId: recipient.id,
          to: [recipient.email],
          period: period.key,
          ...content,
        },
        now,
      );
      await mail.insert;
      queued.push(mail.id);
    }
  }
  await deliverMail(env, db, queued, now);
  return { queued: queued.length };
}
