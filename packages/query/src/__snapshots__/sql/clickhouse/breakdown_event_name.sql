-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-26 23:00:00"
-- p5 = "2024-04-04 22:00:00"
-- p6 = "Qx7Markgoal' OR '1'='1"
SELECT name AS dim, countIf(prev_name < toDateTime({p2:String}, 'UTC')) AS visitors, sum(x_events) AS events, 100 * (toFloat64(uniqExactIf(vkey, coalesce(cv_converted, 0) = 1)) / nullIf(countIf(prev_name < toDateTime({p2:String}, 'UTC')), 0)) AS conversion_rate
FROM (
  SELECT skey, vkey, start_ts, name, x_events, prev_name, cv_converted
  FROM (
    SELECT skey, vkey, start_ts, name, events AS x_events, prev_name
    FROM (
      SELECT property, skey, vkey, start_ts, name, events, prev_name
      FROM visit_events_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p4:String}, 'UTC'))
      AND day <= toDate(toDateTime({p5:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, name, events, prev_name
      FROM (
        SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, name, r.4 AS events, toDateTime(p_start, 'UTC') AS prev_name
        FROM (
          SELECT property, vkey, name, arraySort(groupArray((start_ts, skey, is_new, events))) AS a_rows
          FROM (
            SELECT property, skey, vkey, start_ts, name, events, toUInt8(1) AS is_new
            FROM (
              SELECT property, skey, vkey, start_ts, name, events
              FROM (
                SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, name AS name, toUInt64(countMerge(s_events)) AS events
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
            UNION ALL SELECT property, skey, vkey, start_ts, name, toUInt64(0) AS events, toUInt8(0) AS is_new
            FROM visit_events_done
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p4:String}, 'UTC'))
            AND day < toDate({lookout_first_live:String})
            AND batch IN ({lookout_settled:UInt64s})
            AND vkey IN (
              SELECT vkey
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
          )
          GROUP BY property, vkey, name
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
GROUP BY dim
ORDER BY dim ASC
LIMIT 0, 100
