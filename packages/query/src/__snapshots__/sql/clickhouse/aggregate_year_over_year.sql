-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-31 22:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-30 22:00:00"
-- p5 = "2024-04-04 22:00:00"
-- p6 = "2023-03-31 22:00:00"
-- p7 = "2023-04-03 10:30:00"
-- p8 = "2023-03-30 22:00:00"
-- p9 = "2023-04-04 10:30:00"
SELECT *
FROM (
  SELECT 0 AS period, countIf(prev_any < toDateTime({p2:String}, 'UTC')) AS visitors, count(*) AS visits, sum(s_pageviews) AS pageviews
  FROM (
    SELECT skey, vkey, start_ts, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM (
      SELECT property, skey, vkey, start_ts, pageviews, engaged_ms, prev_any
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p4:String}, 'UTC'))
      AND day <= toDate(toDateTime({p5:String}, 'UTC'))
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
            UNION ALL SELECT property, skey, vkey, start_ts, toUInt64(0) AS pageviews, toFloat64(0) AS engaged_ms, toUInt8(0) AS is_new
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
  UNION ALL SELECT 1 AS period, countIf(prev_any < toDateTime({p6:String}, 'UTC')) AS visitors, count(*) AS visits, sum(s_pageviews) AS pageviews
  FROM (
    SELECT skey, vkey, start_ts, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM (
      SELECT property, skey, vkey, start_ts, pageviews, engaged_ms, prev_any
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p8:String}, 'UTC'))
      AND day <= toDate(toDateTime({p9:String}, 'UTC'))
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
    AND (start_ts >= toDateTime({p6:String}, 'UTC') AND start_ts < toDateTime({p7:String}, 'UTC'))
  ) AS r0
)
ORDER BY period
LIMIT 0, 2
