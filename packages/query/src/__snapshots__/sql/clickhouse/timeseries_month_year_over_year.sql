-- p1 = "Qx7MarkProp"
-- p2 = "2023-04-30 22:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2023-04-29 22:00:00"
-- p5 = "2024-04-04 22:00:00"
-- p6 = "Qx7Markgoal' OR '1'='1"
-- p7 = "2023-10-29 01:00:00"
-- p8 = "2024-03-31 01:00:00"
-- p9 = "2022-04-30 22:00:00"
-- p10 = "2023-04-03 22:00:00"
-- p11 = "2022-04-29 22:00:00"
-- p12 = "2023-04-04 22:00:00"
-- p13 = "2022-10-30 01:00:00"
-- p14 = "2023-03-26 01:00:00"
SELECT *
FROM (
  SELECT 0 AS period, formatDateTime(toDateTime(toStartOfMonth(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN start_ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), '%Y-%m-%d', 'UTC') AS bucket, countIf((prev_any < toDateTime({p2:String}, 'UTC') OR toDateTime(toStartOfMonth(addMinutes(prev_any, CASE WHEN prev_any < toDateTime({p7:String}, 'UTC') THEN 120 WHEN prev_any < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC') < toDateTime(toStartOfMonth(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN start_ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'))) AS visitors, uniqExactIf(vkey, coalesce(cv_converted, 0) = 1) AS conversions
  FROM (
    SELECT skey, vkey, start_ts, prev_any, cv_converted
    FROM (
      SELECT skey, vkey, start_ts, prev_any
      FROM (
        SELECT property, skey, vkey, start_ts, prev_any
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p4:String}, 'UTC'))
        AND day <= toDate(toDateTime({p5:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, prev_any
        FROM (
          SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, toDateTime(p_start, 'UTC') AS prev_any
          FROM (
            SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new))) AS a_rows
            FROM (
              SELECT property, skey, vkey, start_ts, toUInt8(1) AS is_new
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
              UNION ALL SELECT property, skey, vkey, start_ts, toUInt8(0) AS is_new
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
    ANY LEFT JOIN (
      SELECT skey, 1 AS cv_converted
      FROM (
        SELECT property, skey, vkey, start_ts, name
        FROM visit_events_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p4:String}, 'UTC'))
        AND day <= toDate(toDateTime({p5:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, name
        FROM (
          SELECT property, skey, vkey, start_ts, name
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, name AS name
            FROM visit_events
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p4:String}, 'UTC'))
            AND day <= toDate(toDateTime({p5:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey, name
          )
          ANY INNER JOIN (
            SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
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
          ) USING (property, skey)
        )
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
      AND name = {p6:String}
      GROUP BY skey
    ) AS r1 USING (skey)
  )
  GROUP BY toDateTime(toStartOfMonth(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN start_ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')
  UNION ALL SELECT 1 AS period, formatDateTime(toDateTime(toStartOfMonth(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p13:String}, 'UTC') THEN 120 WHEN start_ts < toDateTime({p14:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), '%Y-%m-%d', 'UTC') AS bucket, countIf((prev_any < toDateTime({p9:String}, 'UTC') OR toDateTime(toStartOfMonth(addMinutes(prev_any, CASE WHEN prev_any < toDateTime({p13:String}, 'UTC') THEN 120 WHEN prev_any < toDateTime({p14:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC') < toDateTime(toStartOfMonth(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p13:String}, 'UTC') THEN 120 WHEN start_ts < toDateTime({p14:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'))) AS visitors, uniqExactIf(vkey, coalesce(cv_converted, 0) = 1) AS conversions
  FROM (
    SELECT skey, vkey, start_ts, prev_any, cv_converted
    FROM (
      SELECT skey, vkey, start_ts, prev_any
      FROM (
        SELECT property, skey, vkey, start_ts, prev_any
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p11:String}, 'UTC'))
        AND day <= toDate(toDateTime({p12:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, prev_any
        FROM (
          SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, toDateTime(p_start, 'UTC') AS prev_any
          FROM (
            SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new))) AS a_rows
            FROM (
              SELECT property, skey, vkey, start_ts, toUInt8(1) AS is_new
              FROM (
                SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
                FROM visits
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p11:String}, 'UTC'))
                AND day <= toDate(toDateTime({p12:String}, 'UTC'))
                AND day >= toDate({lookout_first_live:String})
                GROUP BY property, skey
                HAVING skey NOT IN (
                  SELECT cityHash64(session_id)
                  FROM visits
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p11:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p12:String}, 'UTC'))
                  AND day = toDate({lookout_first_live:String}) - 1
                )
              )
              UNION ALL SELECT property, skey, vkey, start_ts, toUInt8(0) AS is_new
              FROM visits_done
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p11:String}, 'UTC'))
              AND day < toDate({lookout_first_live:String})
              AND batch IN ({lookout_settled:UInt64s})
              AND vkey IN (
                SELECT vkey
                FROM (
                  SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
                  FROM visits
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p11:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p12:String}, 'UTC'))
                  AND day >= toDate({lookout_first_live:String})
                  GROUP BY property, skey
                  HAVING skey NOT IN (
                    SELECT cityHash64(session_id)
                    FROM visits
                    WHERE property = {p1:String}
                    AND day >= toDate(toDateTime({p11:String}, 'UTC'))
                    AND day <= toDate(toDateTime({p12:String}, 'UTC'))
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
      AND (start_ts >= toDateTime({p9:String}, 'UTC') AND start_ts < toDateTime({p10:String}, 'UTC'))
    ) AS r0
    ANY LEFT JOIN (
      SELECT skey, 1 AS cv_converted
      FROM (
        SELECT property, skey, vkey, start_ts, name
        FROM visit_events_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p11:String}, 'UTC'))
        AND day <= toDate(toDateTime({p12:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, name
        FROM (
          SELECT property, skey, vkey, start_ts, name
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, name AS name
            FROM visit_events
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p11:String}, 'UTC'))
            AND day <= toDate(toDateTime({p12:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey, name
          )
          ANY INNER JOIN (
            SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p11:String}, 'UTC'))
            AND day <= toDate(toDateTime({p12:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey
            HAVING skey NOT IN (
              SELECT cityHash64(session_id)
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p11:String}, 'UTC'))
              AND day <= toDate(toDateTime({p12:String}, 'UTC'))
              AND day = toDate({lookout_first_live:String}) - 1
            )
          ) USING (property, skey)
        )
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p9:String}, 'UTC') AND start_ts < toDateTime({p10:String}, 'UTC'))
      AND name = {p6:String}
      GROUP BY skey
    ) AS r1 USING (skey)
  )
  GROUP BY toDateTime(toStartOfMonth(addMinutes(start_ts, CASE WHEN start_ts < toDateTime({p13:String}, 'UTC') THEN 120 WHEN start_ts < toDateTime({p14:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')
)
ORDER BY period, bucket
LIMIT 0, 24
