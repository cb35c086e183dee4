-- p1 = "Qx7MarkProp"
-- p2 = "Qx7Marksignup' OR '1'='1"
-- p3 = "2024-03-27 23:00:00"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "2024-03-26 23:00:00"
-- p6 = "2024-04-04 22:00:00"
-- p7 = "Qx7Markrefund' OR '1'='1"
SELECT uniqExact(vkey) AS visitors, sum(ef_events) AS events
FROM (
  SELECT skey, vkey, start_ts, ef_events
  FROM (
    SELECT skey, vkey, start_ts
    FROM (
      SELECT property, skey, vkey, start_ts
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p5:String}, 'UTC'))
      AND day <= toDate(toDateTime({p6:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts
      FROM (
        SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
        FROM visits
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p5:String}, 'UTC'))
        AND day <= toDate(toDateTime({p6:String}, 'UTC'))
        AND day >= toDate({lookout_first_live:String})
        GROUP BY property, skey
        HAVING skey NOT IN (
          SELECT cityHash64(session_id)
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p6:String}, 'UTC'))
          AND day = toDate({lookout_first_live:String}) - 1
        )
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p3:String}, 'UTC') AND start_ts < toDateTime({p4:String}, 'UTC'))
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, name
        FROM visit_events_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p5:String}, 'UTC'))
        AND day <= toDate(toDateTime({p6:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, name
        FROM (
          SELECT property, skey, vkey, start_ts, name
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, name AS name
            FROM visit_events
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey, name
          )
          ANY INNER JOIN (
            SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey
            HAVING skey NOT IN (
              SELECT cityHash64(session_id)
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p5:String}, 'UTC'))
              AND day <= toDate(toDateTime({p6:String}, 'UTC'))
              AND day = toDate({lookout_first_live:String}) - 1
            )
          ) USING (property, skey)
        )
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p3:String}, 'UTC') AND start_ts < toDateTime({p4:String}, 'UTC'))
      AND name = {p2:String}
    )
    AND skey NOT IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, name
        FROM visit_events_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p5:String}, 'UTC'))
        AND day <= toDate(toDateTime({p6:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, name
        FROM (
          SELECT property, skey, vkey, start_ts, name
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, name AS name
            FROM visit_events
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey, name
          )
          ANY INNER JOIN (
            SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey
            HAVING skey NOT IN (
              SELECT cityHash64(session_id)
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p5:String}, 'UTC'))
              AND day <= toDate(toDateTime({p6:String}, 'UTC'))
              AND day = toDate({lookout_first_live:String}) - 1
            )
          ) USING (property, skey)
        )
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p3:String}, 'UTC') AND start_ts < toDateTime({p4:String}, 'UTC'))
      AND name = {p7:String}
    )
  ) AS r0
  ANY INNER JOIN (
    SELECT skey, sum(events) AS ef_events
    FROM (
      SELECT property, skey, vkey, start_ts, name, events
      FROM visit_events_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p5:String}, 'UTC'))
      AND day <= toDate(toDateTime({p6:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, name, events
      FROM (
        SELECT property, skey, vkey, start_ts, name, events
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, name AS name, toUInt64(countMerge(s_events)) AS events
          FROM visit_events
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p6:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey, name
        )
        ANY INNER JOIN (
          SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p6:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String})
          GROUP BY property, skey
          HAVING skey NOT IN (
            SELECT cityHash64(session_id)
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day = toDate({lookout_first_live:String}) - 1
          )
        ) USING (property, skey)
      )
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p3:String}, 'UTC') AND start_ts < toDateTime({p4:String}, 'UTC'))
    AND name = {p2:String}
    GROUP BY skey
  ) AS r1 USING (skey)
)
LIMIT 0, 1
