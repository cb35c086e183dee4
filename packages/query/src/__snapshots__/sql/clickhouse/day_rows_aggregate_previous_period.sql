-- p1 = "Qx7MarkProp"
-- p2 = "Europe/Berlin"
-- p3 = "any"
-- p4 = "2024-03-30 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-03-29 23:00:00"
-- p7 = "2024-04-04 22:00:00"
-- p8 = "2024-01-03 23:00:00"
-- p9 = "2024-01-04 23:00:00"
-- p10 = "2024-01-04 11:30:00"
-- p11 = "2024-01-02 23:00:00"
-- p12 = "2024-01-05 11:30:00"
-- p14 = "2023-10-06 22:00:00"
-- lookout_first_live = "2024-04-01"
-- lookout_settled = ["65537","65538"]
SELECT *
FROM (
  SELECT 0 AS period, sum(i_visitors) AS visitors, sum(i_visits) AS visits, sum(i_pageviews) AS pageviews, (toFloat64(sum(i_pageviews)) / nullIf(sum(i_visits), 0)) AS views_per_visit, 100 * (toFloat64(sum(i_bounces)) / nullIf(sum(i_visits), 0)) AS bounce_rate, (toFloat64(sum(i_durationSum)) / nullIf(sum(i_visits), 0)) AS visit_duration
  FROM (
    SELECT sumIf(visits, prev_lday < 19727) AS i_visitors, sum(visits) AS i_visits, sum(pageviews) AS i_pageviews, sum(bounces) AS i_bounces, sum(duration) AS i_durationSum
    FROM visit_days
    WHERE property = {p1:String}
    AND tz = {p2:String}
    AND dimension = {p3:String}
    AND lday >= 19727
    AND lday < 19813
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT countIf(prev_any < toDateTime({p9:String}, 'UTC')) AS i_visitors, count(*) AS i_visits, sum(s_pageviews) AS i_pageviews, countIf(bounce) AS i_bounces, sum(duration) AS i_durationSum
    FROM (
      SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
      FROM (
        SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
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
  )
  UNION ALL SELECT 1 AS period, sum(i_visitors) AS visitors, sum(i_visits) AS visits, sum(i_pageviews) AS pageviews, (toFloat64(sum(i_pageviews)) / nullIf(sum(i_visits), 0)) AS views_per_visit, 100 * (toFloat64(sum(i_bounces)) / nullIf(sum(i_visits), 0)) AS bounce_rate, (toFloat64(sum(i_durationSum)) / nullIf(sum(i_visits), 0)) AS visit_duration
  FROM (
    SELECT sumIf(visits, prev_lday < 19637) AS i_visitors, sum(visits) AS i_visits, sum(pageviews) AS i_pageviews, sum(bounces) AS i_bounces, sum(duration) AS i_durationSum
    FROM visit_days
    WHERE property = {p1:String}
    AND tz = {p2:String}
    AND dimension = {p3:String}
    AND lday >= 19637
    AND lday < 19726
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT countIf(prev_any < toDateTime({p14:String}, 'UTC')) AS i_visitors, count(*) AS i_visits, sum(s_pageviews) AS i_pageviews, countIf(bounce) AS i_bounces, sum(duration) AS i_durationSum
    FROM (
      SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
      FROM (
        SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p11:String}, 'UTC'))
        AND day <= toDate(toDateTime({p12:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p8:String}, 'UTC') AND start_ts < toDateTime({p10:String}, 'UTC'))
    ) AS r0
  )
)
ORDER BY period
LIMIT 0, 2
