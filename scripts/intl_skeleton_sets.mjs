// The option sets (skeletons) whose patterns the date tables keep, each keyed by its options
// sorted by name ("day=numeric,month=long"): shared by scripts/intl_data.mjs (the Gregorian
// calendar) and scripts/intl_calendars.mjs (the other calendars).
export const SKELETONS = {
  "dateStyle=full": { dateStyle: "full" }, "dateStyle=long": { dateStyle: "long" },
  "dateStyle=medium": { dateStyle: "medium" }, "dateStyle=short": { dateStyle: "short" },
  "timeStyle=medium": { timeStyle: "medium" }, "timeStyle=short": { timeStyle: "short" },
};
for (const ds of ["full", "long", "medium", "short"]) for (const ts of ["medium", "short"]) {
  SKELETONS[`dateStyle=${ds},timeStyle=${ts}`] = { dateStyle: ds, timeStyle: ts };
}
const COMPONENT_SETS = [
  { year: "numeric", month: "long", day: "numeric" }, { year: "numeric", month: "short", day: "numeric" },
  { year: "numeric", month: "2-digit", day: "2-digit" }, { year: "numeric", month: "numeric", day: "numeric" },
  { year: "2-digit", month: "2-digit", day: "2-digit" }, { month: "long", day: "numeric" },
  { month: "short", day: "numeric" }, { year: "numeric", month: "long" }, { year: "numeric", month: "short" },
  { year: "numeric", month: "2-digit" }, { month: "2-digit", day: "2-digit" }, { month: "numeric", day: "numeric" },
  { weekday: "long", year: "numeric", month: "long", day: "numeric" },
  { weekday: "short", year: "numeric", month: "short", day: "numeric" },
  { weekday: "long", month: "long", day: "numeric" }, { weekday: "short", month: "short", day: "numeric" },
  { weekday: "long" }, { weekday: "short" }, { weekday: "narrow" }, { month: "long" }, { month: "short" },
  { month: "narrow" }, { month: "numeric" }, { month: "2-digit" }, { year: "numeric" }, { year: "2-digit" },
  { day: "numeric" }, { day: "2-digit" },
  { hour: "numeric" }, { hour: "2-digit" }, { hour: "numeric", minute: "2-digit" },
  { hour: "2-digit", minute: "2-digit" }, { hour: "numeric", minute: "numeric" },
  { hour: "2-digit", minute: "2-digit", second: "2-digit" }, { hour: "numeric", minute: "2-digit", second: "2-digit" },
  { minute: "2-digit", second: "2-digit" },
  { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit" },
  { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" },
  { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" },
  { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" },
  { weekday: "long", hour: "numeric", minute: "2-digit" },
];
// eras, alone and with the dates they name
for (const era of ["short", "long", "narrow"]) {
  COMPONENT_SETS.push({ era }, { era, year: "numeric" }, { era, year: "numeric", month: "long", day: "numeric" },
    { era, year: "numeric", month: "short", day: "numeric" }, { era, year: "numeric", month: "numeric", day: "numeric" });
}
// what the Date methods make of a set without their fields: toLocaleTimeString adds hours,
// minutes and seconds, toLocaleDateString a year, month and day, toLocaleString both
const DATE_PART = ["weekday", "era", "year", "month", "day"];
const TIME_PART = ["dayPeriod", "hour", "minute", "second"];
for (const set of [...COMPONENT_SETS]) {
  const keys = Object.keys(set);
  if (!keys.some((k) => TIME_PART.includes(k))) COMPONENT_SETS.push({ ...set, hour: "numeric", minute: "numeric", second: "numeric" });
  if (!keys.some((k) => DATE_PART.includes(k))) COMPONENT_SETS.push({ ...set, year: "numeric", month: "numeric", day: "numeric" });
}
export const skeletonKey = (o) => Object.keys(o).sort().map((k) => `${k}=${o[k]}`).join(",");
for (const set of COMPONENT_SETS) {
  SKELETONS[skeletonKey(set)] = set;
  if ("hour" in set) {
    for (const h12 of [true, false]) SKELETONS[skeletonKey({ ...set, hour12: h12 })] = { ...set, hour12: h12 };
  }
}
