-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-26 23:00:00"
-- p5 = "2024-04-04 22:00:00"
-- p6 = "Qx7Markgoal' OR '1'='1"
-- p7 = "2024-03-20 23:00:00"
-- p8 = "2024-03-27 11:30:00"
-- p9 = "2024-03-19 23:00:00"
-- p10 = "2024-03-28 11:30:00"
SELECT *
FROM (
  SELECT 0 AS period, countIf(prev_any < toDateTime({p2:String}, 'UTC')) AS visitors, count(*) AS visits, sum(s_pageviews) AS pageviews, (toFloat64(sum(s_pageviews)) / nullIf(count(*), 0)) AS views_per_visit, 100 * (toFloat64(countIf(bounce)) / nullIf(count(*), 0)) AS bounce_rate, (toFloat64(sum(duration)) / nullIf(count(*), 0)) AS visit_duration, sum(s_events) AS events, uniqExactIf(vkey, coalesce(cv_converted, 0) = 1) AS conversions, 100 * (toFloat64(uniqExactIf(vkey, coalesce(cv_converted, 0) = 1)) / nullIf(countIf(prev_any < toDateTime({p2:String}, 'UTC')), 0)) AS conversion_rate, (toFloat64(sum(s_engaged)) / nullIf(sum(s_pageviews), 0)) / 1000 AS time_on_page
  FROM (
    SELECT skey, vkey, start_ts, bounce, duration, s_pageviews, s_engaged, s_events, prev_any, cv_converted
    FROM (
      SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, events AS s_events, prev_any
      FROM (
        SELECT property, skey, vkey, start_ts, duration, pageviews, events, bounce, engaged_ms, prev_any
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p4:String}, 'UTC'))
        AND day <= toDate(toDateTime({p5:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, duration, pageviews, events, bounce, engaged_ms, prev_any
        FROM (
          SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, r.4 AS duration, r.5 AS pageviews, r.6 AS events, r.7 AS bounce, r.8 AS engaged_ms, toDateTime(p_start, 'UTC') AS prev_any
          FROM (
            SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new, duration, pageviews, events, bounce, engaged_ms))) AS a_rows
            FROM (
              SELECT property, skey, vkey, start_ts, duration, pageviews, events, bounce, engaged_ms, toUInt8(1) AS is_new
              FROM (
                SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt64(sumMerge(s_events)) AS events, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
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
              UNION ALL SELECT property, skey, vkey, start_ts, toFloat64(0) AS duration, toUInt64(0) AS pageviews, toUInt64(0) AS events, toUInt8(0) AS bounce, toFloat64(0) AS engaged_ms, toUInt8(0) AS is_new
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
  UNION ALL SELECT 1 AS period, countIf(prev_any < toDateTime({p7:String}, 'UTC')) AS visitors, count(*) AS visits, sum(s_pageviews) AS pageviews, (toFloat64(sum(s_pageviews)) / nullIf(count(*), 0)) AS views_per_visit, 100 * (toFloat64(countIf(bounce)) / nullIf(count(*), 0)) AS bounce_rate, (toFloat64(sum(duration)) / nullIf(count(*), 0)) AS visit_duration, sum(s_events) AS events, uniqExactIf(vkey, coalesce(cv_converted, 0) = 1) AS conversions, 100 * (toFloat64(uniqExactIf(vkey, coalesce(cv_converted, 0) = 1)) / nullIf(countIf(prev_any < toDateTime({p7:String}, 'UTC')), 0)) AS conversion_rate, (toFloat64(sum(s_engaged)) / nullIf(sum(s_pageviews), 0)) / 1000 AS time_on_page
  FROM (
    SELECT skey, vkey, start_ts, bounce, duration, s_pageviews, s_engaged, s_events, prev_any, cv_converted
    FROM (
      SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, events AS s_events, prev_any
      FROM (
        SELECT property, skey, vkey, start_ts, duration, pageviews, events, bounce, engaged_ms, prev_any
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p9:String}, 'UTC'))
        AND day <= toDate(toDateTime({p10:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, duration, pageviews, events, bounce, engaged_ms, prev_any
        FROM (
          SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, r.4 AS duration, r.5 AS pageviews, r.6 AS events, r.7 AS bounce, r.8 AS engaged_ms, toDateTime(p_start, 'UTC') AS prev_any
          FROM (
            SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new, duration, pageviews, events, bounce, engaged_ms))) AS a_rows
            FROM (
              SELECT property, skey, vkey, start_ts, duration, pageviews, events, bounce, engaged_ms, toUInt8(1) AS is_new
              FROM (
                SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt64(sumMerge(s_events)) AS events, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
                FROM visits
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p9:String}, 'UTC'))
                AND day <= toDate(toDateTime({p10:String}, 'UTC'))
                AND day >= toDate({lookout_first_live:String})
                GROUP BY property, skey
                HAVING skey NOT IN (
                  SELECT cityHash64(session_id)
                  FROM visits
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p9:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p10:String}, 'UTC'))
                  AND day = toDate({lookout_first_live:String}) - 1
                )
              )
              UNION ALL SELECT property, skey, vkey, start_ts, toFloat64(0) AS duration, toUInt64(0) AS pageviews, toUInt64(0) AS events, toUInt8(0) AS bounce, toFloat64(0) AS engaged_ms, toUInt8(0) AS is_new
              FROM visits_done
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p9:String}, 'UTC'))
              AND day < toDate({lookout_first_live:String})
              AND batch IN ({lookout_settled:UInt64s})
              AND vkey IN (
                SELECT vkey
                FROM (
                  SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
                  FROM visits
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p9:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p10:String}, 'UTC'))
                  AND day >= toDate({lookout_first_live:String})
                  GROUP BY property, skey
                  HAVING skey NOT IN (
                    SELECT cityHash64(session_id)
                    FROM visits
                    WHERE property = {p1:String}
                    AND day >= toDate(toDateTime({p9:String}, 'UTC'))
                    AND day <= toDate(toDateTime({p10:String}, 'UTC'))
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
      AND (start_ts >= toDateTime({p7:String}, 'UTC') AND start_ts < toDateTime({p8:String}, 'UTC'))
    ) AS r0
    ANY LEFT JOIN (
      SELECT skey, 1 AS cv_converted
      FROM (
        SELECT property, skey, vkey, start_ts, name
        FROM visit_events_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p9:String}, 'UTC'))
        AND day <= toDate(toDateTime({p10:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, name
        FROM (
          SELECT property, skey, vkey, start_ts, name
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, name AS name
            FROM visit_events
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p9:String}, 'UTC'))
            AND day <= toDate(toDateTime({p10:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey, name
          )
          ANY INNER JOIN (
            SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p9:String}, 'UTC'))
            AND day <= toDate(toDateTime({p10:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey
            HAVING skey NOT IN (
              SELECT cityHash64(session_id)
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p9:String}, 'UTC'))
              AND day <= toDate(toDateTime({p10:String}, 'UTC'))
              AND day = toDate({lookout_first_live:String}) - 1
            )
          ) USING (property, skey)
        )
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p7:String}, 'UTC') AND start_ts < toDateTime({p8:String}, 'UTC'))
      AND name = {p6:String}
      GROUP BY skey
    ) AS r1 USING (skey)
  )
)
ORDER BY period
LIMIT 0, 2
