-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-26 23:00:00"
-- p5 = "2024-04-04 22:00:00"
SELECT path AS dim, countIf(prev_path < toDateTime({p2:String}, 'UTC')) AS visitors, sum(p_pageviews) AS pageviews, (toFloat64(sum(p_engaged)) / nullIf(sum(p_pageviews), 0)) / 1000 AS time_on_page, 100 * (toFloat64(countIf(bounce)) / nullIf(count(*), 0)) AS bounce_rate, sum(s_events) AS events
FROM (
  SELECT skey, vkey, start_ts, path, p_pageviews, p_engaged, prev_path, bounce, duration, s_events
  FROM (
    SELECT skey, vkey, start_ts, path, pageviews AS p_pageviews, engaged_ms AS p_engaged, prev_path
    FROM (
      SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms, prev_path
      FROM visit_pages_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p4:String}, 'UTC'))
      AND day <= toDate(toDateTime({p5:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms, prev_path
      FROM (
        SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, path, r.4 AS pageviews, r.5 AS engaged_ms, toDateTime(p_start, 'UTC') AS prev_path
        FROM (
          SELECT property, vkey, path, arraySort(groupArray((start_ts, skey, is_new, pageviews, engaged_ms))) AS a_rows
          FROM (
            SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms, toUInt8(1) AS is_new
            FROM (
              SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
              FROM (
                SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, path AS path, toUInt64(sumMerge(s_pageviews)) AS pageviews, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
                FROM visit_pages
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p4:String}, 'UTC'))
                AND day <= toDate(toDateTime({p5:String}, 'UTC'))
                AND day >= toDate({lookout_first_live:String})
                GROUP BY property, skey, path
                HAVING pageviews > 0
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
            UNION ALL SELECT property, skey, vkey, start_ts, path, toUInt64(0) AS pageviews, toFloat64(0) AS engaged_ms, toUInt8(0) AS is_new
            FROM visit_pages_done
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p4:String}, 'UTC'))
            AND day < toDate({lookout_first_live:String})
            AND batch IN ({lookout_settled:UInt64s})
            AND vkey IN (
              SELECT vkey
              FROM (
                SELECT property, skey, vkey, start_ts, path, pageviews
                FROM (
                  SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, path AS path, toUInt64(sumMerge(s_pageviews)) AS pageviews
                  FROM visit_pages
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p4:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p5:String}, 'UTC'))
                  AND day >= toDate({lookout_first_live:String})
                  GROUP BY property, skey, path
                  HAVING pageviews > 0
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
          )
          GROUP BY property, vkey, path
        ) ARRAY
        JOIN a_rows AS r, arrayPushFront(arrayPopBack(arrayMap(x -> x.1, a_rows)), toDateTime(0, 'UTC')) AS p_start
        WHERE r.3 = 1
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  ) AS r0
  ANY INNER JOIN (
    SELECT skey, bounce, duration, events AS s_events
    FROM (
      SELECT property, skey, vkey, start_ts, duration, events, bounce
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p4:String}, 'UTC'))
      AND day <= toDate(toDateTime({p5:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, duration, events, bounce
      FROM (
        SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt64(sumMerge(s_events)) AS events, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce
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
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  ) AS r1 USING (skey)
)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
