-- p1 = "Qx7MarkProp"
-- p2 = "Qx7Markplan"
-- p3 = "Qx7Markpro' OR '1'='1"
-- p4 = "Qx7Marksrc"
-- p5 = "Qx7Markform' OR '1'='1"
-- p6 = "Qx7Markab"
-- p7 = "^Qx7Markv[0-9]+$"
-- p8 = "2024-03-27 23:00:00"
-- p9 = "2024-04-03 22:00:00"
-- p10 = "2024-03-26 23:00:00"
-- p11 = "2024-04-04 22:00:00"
-- p12 = "Qx7Markfree' OR '1'='1"
-- p13 = "Qx7Markapi' OR '1'='1"
SELECT uniqExact(vkey) AS visitors, sum(ef_events) AS events
FROM (
  SELECT skey, vkey, start_ts, ef_events
  FROM (
    SELECT skey, vkey, start_ts
    FROM (
      SELECT property, skey, vkey, start_ts, events
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p10:String}, 'UTC'))
      AND day <= toDate(toDateTime({p11:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, events
      FROM (
        SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt64(sumMerge(s_events)) AS events
        FROM visits
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p10:String}, 'UTC'))
        AND day <= toDate(toDateTime({p11:String}, 'UTC'))
        AND day >= toDate({lookout_first_live:String})
        GROUP BY property, skey
        HAVING skey NOT IN (
          SELECT cityHash64(session_id)
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p10:String}, 'UTC'))
          AND day <= toDate(toDateTime({p11:String}, 'UTC'))
          AND day = toDate({lookout_first_live:String}) - 1
        )
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p8:String}, 'UTC') AND start_ts < toDateTime({p9:String}, 'UTC'))
    AND skey IN (
      SELECT cityHash64(session_id)
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p8:String}, 'UTC')
      AND ts < toDateTime({p11:String}, 'UTC')
      AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
      AND has(props.key, {p2:String})
      AND props.value[indexOf(props.key, {p2:String})] = {p3:String}
      AND has(props.key, {p4:String})
      AND (positionCaseInsensitiveUTF8(props.value[indexOf(props.key, {p4:String})], {p5:String}) > 0)
      AND has(props.key, {p6:String})
      AND match(props.value[indexOf(props.key, {p6:String})], {p7:String})
    )
    AND skey NOT IN (
      SELECT cityHash64(session_id)
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p8:String}, 'UTC')
      AND ts < toDateTime({p11:String}, 'UTC')
      AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
      AND has(props.key, {p2:String})
      AND props.value[indexOf(props.key, {p2:String})] = {p12:String}
    )
    AND skey NOT IN (
      SELECT cityHash64(session_id)
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p8:String}, 'UTC')
      AND ts < toDateTime({p11:String}, 'UTC')
      AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
      AND has(props.key, {p4:String})
      AND (positionCaseInsensitiveUTF8(props.value[indexOf(props.key, {p4:String})], {p13:String}) > 0)
    )
  ) AS r0
  ANY INNER JOIN (
    SELECT cityHash64(session_id) AS skey, count(*) AS ef_events
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p8:String}, 'UTC')
    AND ts < toDateTime({p11:String}, 'UTC')
    AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
    AND has(props.key, {p2:String})
    AND props.value[indexOf(props.key, {p2:String})] = {p3:String}
    AND has(props.key, {p4:String})
    AND (positionCaseInsensitiveUTF8(props.value[indexOf(props.key, {p4:String})], {p5:String}) > 0)
    AND has(props.key, {p6:String})
    AND match(props.value[indexOf(props.key, {p6:String})], {p7:String})
    GROUP BY cityHash64(session_id)
  ) AS r1 USING (skey)
)
LIMIT 0, 1
