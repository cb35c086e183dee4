-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-03 23:00:00"
-- p5 = "2024-04-04 22:00:00"
-- p6 = "2024-03-31 01:00:00"
-- p7 = "2024-02-03 23:00:00"
-- p8 = "2024-02-02 23:00:00"
-- p9 = "2024-03-05 23:00:00"
SELECT *
FROM (
  SELECT 0 AS period, formatDateTime(toStartOfDay(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, countIf((prev_any < toDateTime({p2:String}, 'UTC') OR toStartOfDay(addMinutes(prev_any, CASE WHEN prev_any < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)) < toStartOfDay(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)))) AS visitors, sum(s_pageviews) AS pageviews, 100 * (toFloat64(countIf(bounce)) / nullIf(count(*), 0)) AS bounce_rate
  FROM (
    SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM (
      SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p4:String}, 'UTC'))
      AND day <= toDate(toDateTime({p5:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
      FROM (
        SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, r.4 AS duration, r.5 AS pageviews, r.6 AS bounce, r.7 AS engaged_ms, toDateTime(p_start, 'UTC') AS prev_any
        FROM (
          SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new, duration, pageviews, bounce, engaged_ms))) AS a_rows
          FROM (
            SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, toUInt8(1) AS is_new
            FROM (
              SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p4:String}, 'UTC'))
              AND day <= toDate(toDateTime({p5:String}, 'UTC'))
              AND day >= toDate({lookout_first_live:String})
              GROUP BY property, skey
              HAVING skey NOT IN (
                SELECT cityHash64(session_id)
                FROM visits
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p4:String}, 'UTC'))
                AND day <= toDate(toDateTime({p5:String}, 'UTC'))
                AND day = toDate({lookout_first_live:String}) - 1
              )
            )
            UNION ALL SELECT property, skey, vkey, start_ts, toFloat64(0) AS duration, toUInt64(0) AS pageviews, toUInt8(0) AS bounce, toFloat64(0) AS engaged_ms, toUInt8(0) AS is_new
            FROM visits_done
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p4:String}, 'UTC'))
            AND day < toDate({lookout_first_live:String})
            AND batch IN ({lookout_settled:UInt64s})
            AND vkey IN (
              SELECT vkey
              FROM (
                SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
                FROM visits
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p4:String}, 'UTC'))
                AND day <= toDate(toDateTime({p5:String}, 'UTC'))
                AND day >= toDate({lookout_first_live:String})
                GROUP BY property, skey
                HAVING skey NOT IN (
                  SELECT cityHash64(session_id)
                  FROM visits
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p4:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p5:String}, 'UTC'))
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
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  ) AS r0
  GROUP BY toStartOfDay(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END))
  UNION ALL SELECT 1 AS period, formatDateTime(toStartOfDay(addMinutes(start_ts, 60)), '%Y-%m-%d', 'UTC') AS bucket, countIf((prev_any < toDateTime({p7:String}, 'UTC') OR toStartOfDay(addMinutes(prev_any, 60)) < toStartOfDay(addMinutes(start_ts, 60)))) AS visitors, sum(s_pageviews) AS pageviews, 100 * (toFloat64(countIf(bounce)) / nullIf(count(*), 0)) AS bounce_rate
  FROM (
    SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM (
      SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p8:String}, 'UTC'))
      AND day <= toDate(toDateTime({p9:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
      FROM (
        SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, r.4 AS duration, r.5 AS pageviews, r.6 AS bounce, r.7 AS engaged_ms, toDateTime(p_start, 'UTC') AS prev_any
        FROM (
          SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new, duration, pageviews, bounce, engaged_ms))) AS a_rows
          FROM (
            SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, toUInt8(1) AS is_new
            FROM (
              SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p8:String}, 'UTC'))
              AND day <= toDate(toDateTime({p9:String}, 'UTC'))
              AND day >= toDate({lookout_first_live:String})
              GROUP BY property, skey
              HAVING skey NOT IN (
                SELECT cityHash64(session_id)
                FROM visits
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p8:String}, 'UTC'))
                AND day <= toDate(toDateTime({p9:String}, 'UTC'))
                AND day = toDate({lookout_first_live:String}) - 1
              )
            )
            UNION ALL SELECT property, skey, vkey, start_ts, toFloat64(0) AS duration, toUInt64(0) AS pageviews, toUInt8(0) AS bounce, toFloat64(0) AS engaged_ms, toUInt8(0) AS is_new
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
                AND day >= toDate(toDateTime({p8:String}, 'UTC'))
                AND day <= toDate(toDateTime({p9:String}, 'UTC'))
                AND day >= toDate({lookout_first_live:String})
                GROUP BY property, skey
                HAVING skey NOT IN (
                  SELECT cityHash64(session_id)
                  FROM visits
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p8:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p9:String}, 'UTC'))
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
    AND (start_ts >= toDateTime({p7:String}, 'UTC') AND start_ts < toDateTime({p2:String}, 'UTC'))
  ) AS r0
  GROUP BY toStartOfDay(addMinutes(start_ts, 60))
)
ORDER BY period, bucket
LIMIT 0, 60
