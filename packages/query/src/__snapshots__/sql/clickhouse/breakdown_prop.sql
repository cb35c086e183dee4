-- p1 = "Qx7MarkProp"
-- p2 = "Qx7Markplan"
-- p3 = "2024-03-27 23:00:00"
-- p4 = "2024-04-04 22:00:00"
-- p5 = "2024-03-26 23:00:00"
-- p6 = "2024-04-03 22:00:00"
SELECT dim_value AS dim, uniqExact(vkey) AS visitors, sum(x_events) AS events, sum(s_pageviews) AS pageviews, 100 * (toFloat64(countIf(bounce)) / nullIf(count(*), 0)) AS bounce_rate
FROM (
  SELECT skey, vkey, dim_value, x_events, bounce, duration, s_pageviews, s_engaged, start_ts
  FROM (
    SELECT cityHash64(session_id) AS skey, any(cityHash64(visitor_id)) AS vkey, props.value[indexOf(props.key, {p2:String})] AS dim_value, count(*) AS x_events
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p3:String}, 'UTC')
    AND ts < toDateTime({p4:String}, 'UTC')
    AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
    AND has(props.key, {p2:String})
    GROUP BY cityHash64(session_id), dim_value
  ) AS r0
  ANY INNER JOIN (
    SELECT skey, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, start_ts
    FROM (
      SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p5:String}, 'UTC'))
      AND day <= toDate(toDateTime({p4:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms
      FROM (
        SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
        FROM visits
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p5:String}, 'UTC'))
        AND day <= toDate(toDateTime({p4:String}, 'UTC'))
        AND day >= toDate({lookout_first_live:String})
        GROUP BY property, skey
        HAVING skey NOT IN (
          SELECT cityHash64(session_id)
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p4:String}, 'UTC'))
          AND day = toDate({lookout_first_live:String}) - 1
        )
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p3:String}, 'UTC') AND start_ts < toDateTime({p6:String}, 'UTC'))
  ) AS r1 USING (skey)
)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
