-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-04 22:00:00"
-- p4 = "Qx7Markplan"
-- p5 = "Qx7Markpro' OR '1'='1"
-- p6 = "2024-03-26 23:00:00"
-- p7 = "2024-04-03 22:00:00"
SELECT dim_value AS dim, uniqExact(vkey) AS visitors, sum(x_events) AS events
FROM (
  SELECT skey, vkey, dim_value, x_events, start_ts
  FROM (
    SELECT cityHash64(session_id) AS skey, any(cityHash64(visitor_id)) AS vkey, name AS dim_value, count(*) AS x_events
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
    AND has(props.key, {p4:String})
    AND props.value[indexOf(props.key, {p4:String})] = {p5:String}
    GROUP BY cityHash64(session_id), dim_value
  ) AS r0
  ANY INNER JOIN (
    SELECT skey, start_ts
    FROM (
      SELECT property, skey, vkey, start_ts
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p6:String}, 'UTC'))
      AND day <= toDate(toDateTime({p3:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts
      FROM (
        SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
        FROM visits
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p3:String}, 'UTC'))
        AND day >= toDate({lookout_first_live:String})
        GROUP BY property, skey
        HAVING skey NOT IN (
          SELECT cityHash64(session_id)
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p6:String}, 'UTC'))
          AND day <= toDate(toDateTime({p3:String}, 'UTC'))
          AND day = toDate({lookout_first_live:String}) - 1
        )
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p7:String}, 'UTC'))
  ) AS r1 USING (skey)
)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
