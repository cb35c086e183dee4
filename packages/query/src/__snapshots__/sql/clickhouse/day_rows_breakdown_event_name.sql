-- p1 = "Qx7MarkProp"
-- p2 = "Europe/Berlin"
-- p3 = "name"
-- p4 = "2024-03-30 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-03-29 23:00:00"
-- p7 = "2024-04-04 22:00:00"
-- p8 = "2024-03-03 23:00:00"
-- p9 = "2024-03-04 23:00:00"
-- lookout_first_live = "2024-04-01"
-- lookout_settled = ["65537","65538"]
SELECT dim, sum(i_visitors) AS visitors, sum(i_events) AS events
FROM (
  SELECT value AS dim, sumIf(visits, prev_lday < 19787) AS i_visitors, sum(events) AS i_events
  FROM visit_days
  WHERE property = {p1:String}
  AND tz = {p2:String}
  AND dimension = {p3:String}
  AND lday >= 19787
  AND lday < 19813
  AND batch IN ({lookout_settled:UInt64s})
  GROUP BY value
  UNION ALL SELECT name AS dim, countIf(prev_name < toDateTime({p9:String}, 'UTC')) AS i_visitors, sum(x_events) AS i_events
  FROM (
    SELECT skey, vkey, start_ts, name, events AS x_events, prev_name
    FROM (
      SELECT property, skey, vkey, start_ts, name, events, prev_name
      FROM visit_events_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p6:String}, 'UTC'))
      AND day <= toDate(toDateTime({p7:String}, 'UTC'))
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
                AND day >= toDate(toDateTime({p6:String}, 'UTC'))
                AND day <= toDate(toDateTime({p7:String}, 'UTC'))
                AND day >= toDate({lookout_first_live:String})
                GROUP BY property, skey, name
              )
              ANY INNER JOIN (
                SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
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
              ) USING (property, skey)
            )
            UNION ALL SELECT property, skey, vkey, start_ts, name, toUInt64(0) AS events, toUInt8(0) AS is_new
            FROM visit_events_done
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p8:String}, 'UTC'))
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
                  AND day >= toDate(toDateTime({p6:String}, 'UTC'))
                  AND day <= toDate(toDateTime({p7:String}, 'UTC'))
                  AND day >= toDate({lookout_first_live:String})
                  GROUP BY property, skey, name
                )
                ANY INNER JOIN (
                  SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
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
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
  ) AS r0
  GROUP BY dim
)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
