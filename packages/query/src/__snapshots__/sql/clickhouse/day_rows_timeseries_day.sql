-- p1 = "Qx7MarkProp"
-- p2 = "Europe/Berlin"
-- p3 = "any"
-- p4 = "2024-03-30 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-03-29 23:00:00"
-- p7 = "2024-04-04 22:00:00"
-- p8 = "2024-01-03 23:00:00"
-- p9 = "2024-01-04 23:00:00"
-- p10 = "2024-03-31 01:00:00"
-- lookout_first_live = "2024-04-01"
-- lookout_settled = ["65537","65538"]
SELECT formatDateTime(k, '%Y-%m-%d', 'UTC') AS bucket, sum(i_visitors) AS visitors, sum(i_pageviews) AS pageviews
FROM (
  SELECT toDateTime((toDate('1970-01-01') + lday), 'UTC') AS k, sumIf(visits, prev_lday < lday) AS i_visitors, sum(pageviews) AS i_pageviews
  FROM visit_days
  WHERE property = {p1:String}
  AND tz = {p2:String}
  AND dimension = {p3:String}
  AND lday >= 19727
  AND lday < 19813
  AND batch IN ({lookout_settled:UInt64s})
  GROUP BY toDateTime((toDate('1970-01-01') + lday), 'UTC')
  UNION ALL SELECT toStartOfDay(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p10:String}, 'UTC') THEN 60 ELSE 120 END)) AS k, countIf((prev_any < toDateTime({p9:String}, 'UTC') OR toStartOfDay(addMinutes(prev_any, CASE WHEN prev_any < toDateTime({p10:String}, 'UTC') THEN 60 ELSE 120 END)) < toStartOfDay(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p10:String}, 'UTC') THEN 60 ELSE 120 END)))) AS i_visitors, sum(s_pageviews) AS i_pageviews
  FROM (
    SELECT skey, vkey, start_ts, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM (
      SELECT property, skey, vkey, start_ts, pageviews, engaged_ms, prev_any
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p6:String}, 'UTC'))
      AND day <= toDate(toDateTime({p7:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, pageviews, engaged_ms, prev_any
      FROM (
        SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, r.4 AS pageviews, r.5 AS engaged_ms, toDateTime(p_start, 'UTC') AS prev_any
        FROM (
          SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new, pageviews, engaged_ms))) AS a_rows
          FROM (
            SELECT property, skey, vkey, start_ts, pageviews, engaged_ms, toUInt8(1) AS is_new
            FROM (
              SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p6:String}, 'UTC'))
              AND day <= toDate(toDateTime({p7:String}, 'UTC'))
              AND day >= toDate({lookout_first_live:String})
              GROUP BY property, skey
              HAVING skey NOT IN (
                SELECT cityHash64(session_id)
                FROM visits
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p6:String}, 'UTC'))
                AND day <= toDate(toDateTime({p7:String}, 'UTC'))
                AND day = toDate({lookout_first_live:String}) - 1
              )
            )
            UNION ALL SELECT property, skey, vkey, start_ts, toUInt64(0) AS pageviews, toFloat64(0) AS engaged_ms, toUInt8(0) AS is_new
            FROM visits_done
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p8:String}, 'UTC'))
            AND day < toDate({lookout_first_live:String})
            AND batch IN ({lookout_settled:UInt64s})
            AND vkey IN (
              SELECT vkey
              FROM (
                SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
                FROM visits
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p6:String}, 'UTC'))
                AND day <= toDate(toDateTime({p7:String}, 'UTC'))
                AND day >= toDate({lookout_first_live:String})
                GROUP BY property, skey
                HAVING skey NOT IN (
                  SELECT cityHash64(session_id)
                  FROM visits
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p6:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p7:String}, 'UTC'))
                  AND day = toDate({lookout_first_live:String}) - 1
                )
              )
            )
          )
          GROUP BY property, vkey
        ) ARRAY
        JOIN a_rows AS r, arrayPushFront(arrayPopBack(arrayMap(x -> x.1, a_rows)), toDateTime(0, 'UTC')) AS p_start
        WHERE r.3 = 1
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
  ) AS r0
  GROUP BY k
)
GROUP BY k
ORDER BY bucket
LIMIT 0, 90
