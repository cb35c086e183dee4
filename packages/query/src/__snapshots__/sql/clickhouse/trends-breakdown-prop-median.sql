-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "purchase"
-- p5 = "plan"
-- p6 = "$other"
-- p7 = "amount"
-- p8 = "2024-03-31 01:00:00"
SELECT *
FROM (
  SELECT 0 AS series, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN props.value[indexOf(props.key, {p5:String})] IN (
      SELECT v FROM (
        SELECT props.value[indexOf(props.key, {p5:String})] AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p4:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 5
      ) AS tv
    ) THEN props.value[indexOf(props.key, {p5:String})] ELSE {p6:String} END AS bv, formatDateTime(toStartOfHour(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d %H:%M:%S', 'UTC') AS bucket, toNullable(toFloat64(if(count(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})])) = 0, NULL, (arrayElement(arraySort(groupArray(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})]))), toUInt64(intDiv(count(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})])) + 1, 2))) + arrayElement(arraySort(groupArray(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})]))), toUInt64(intDiv(count(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})])) + 2, 2)))) / 2))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv, toStartOfHour(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END))
  ) AS s0b
  UNION ALL SELECT 0 AS series, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN props.value[indexOf(props.key, {p5:String})] IN (
      SELECT v FROM (
        SELECT props.value[indexOf(props.key, {p5:String})] AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p4:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 5
      ) AS tv
    ) THEN props.value[indexOf(props.key, {p5:String})] ELSE {p6:String} END AS bv, toNullable(toFloat64(if(count(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})])) = 0, NULL, (arrayElement(arraySort(groupArray(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})]))), toUInt64(intDiv(count(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})])) + 1, 2))) + arrayElement(arraySort(groupArray(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})]))), toUInt64(intDiv(count(toFloat64OrNull(props.value[indexOf(props.key, {p7:String})])) + 2, 2)))) / 2))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv
  ) AS s0t
) AS t
ORDER BY series, is_total, bv, bucket
LIMIT 0, 1008
