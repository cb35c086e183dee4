-- p1 = "Qx7MarkProp"
-- p2 = "Qx7MarkA' OR '1'='1"
-- p3 = "Qx7Marka' OR '1'='1"
-- p4 = "2024-03-27 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-03-26 23:00:00"
-- p7 = "2024-04-04 22:00:00"
-- p8 = "Qx7MarkB' OR '1'='1"
-- p9 = "^/Qx7Markb/.*$"
SELECT dim, g_visitors AS visitors, g_events AS events
FROM (
  SELECT {p2:String} AS dim, uniqExact(vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
  FROM (
    SELECT vkey, events AS g_n
    FROM (
      SELECT property, skey, vkey, start_ts, name, events
      FROM visit_events_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p6:String}, 'UTC'))
      AND day <= toDate(toDateTime({p7:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, name, events
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
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
    AND name = {p3:String}
  ) AS r0
  UNION ALL SELECT {p8:String} AS dim, uniqExact(vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
  FROM (
    SELECT vkey, pageviews AS g_n
    FROM (
      SELECT property, skey, vkey, start_ts, path, pageviews
      FROM visit_pages_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p6:String}, 'UTC'))
      AND day <= toDate(toDateTime({p7:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, path, pageviews
      FROM (
        SELECT property, skey, vkey, start_ts, path, pageviews
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, path AS path, toUInt64(sumMerge(s_pageviews)) AS pageviews
          FROM visit_pages
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p6:String}, 'UTC'))
          AND day <= toDate(toDateTime({p7:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey, path
          HAVING pageviews > 0
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
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
    AND match(path, {p9:String})
  ) AS r1
)
ORDER BY dim ASC
LIMIT 1, 1
