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
      SELECT property, skey, vkey, client_id, start_ts, events
      FROM visits_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p5:String}, 'UTC'))
      AND day <= toDate(toDateTime({p6:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, client_id, start_ts, events
      FROM (
        SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, any(client_id) AS client_id, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toDateTime(maxMerge(s_end), 'UTC') AS end_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt64(sumMerge(s_events)) AS events, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms, if(sumMerge(s_pageviews) > 0, argMinMerge(s_entry), '') AS entry_page, if(sumMerge(s_pageviews) > 0, argMaxMerge(s_exit), '') AS exit_page, argMinMerge(s_hostname) AS hostname, argMinMerge(s_referrer_source) AS referrer_source, argMinMerge(s_referrer) AS referrer, argMinMerge(s_channel) AS channel, argMinMerge(s_utm_source) AS utm_source, argMinMerge(s_utm_medium) AS utm_medium, argMinMerge(s_utm_campaign) AS utm_campaign, argMinMerge(s_utm_term) AS utm_term, argMinMerge(s_utm_content) AS utm_content, argMinMerge(s_country) AS country, argMinMerge(s_region) AS region, argMinMerge(s_city) AS city, argMinMerge(s_browser) AS browser, argMinMerge(s_browser_version) AS browser_version, argMinMerge(s_os) AS os, argMinMerge(s_os_version) AS os_version, argMinMerge(s_device) AS device, argMinMerge(s_screen) AS screen
        FROM visits
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p5:String}, 'UTC'))
        AND day <= toDate(toDateTime({p6:String}, 'UTC'))
        AND day >= toDate({lookout_first_live:String}) - 1
        GROUP BY property, skey
        HAVING toDate(start_ts) >= toDate({lookout_first_live:String})
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
          SELECT property, skey, vkey, client_id, start_ts, name, events, revenue
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, any(client_id) AS client_id, name AS name, toUInt64(countMerge(s_events)) AS events, toFloat64(sumMerge(s_revenue)) AS revenue
            FROM visit_events
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String}) - 1
            GROUP BY property, skey, name
          )
          ANY INNER JOIN (
            SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String}) - 1
            GROUP BY property, skey
            HAVING toDate(start_ts) >= toDate({lookout_first_live:String})
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
          SELECT property, skey, vkey, client_id, start_ts, name, events, revenue
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, any(client_id) AS client_id, name AS name, toUInt64(countMerge(s_events)) AS events, toFloat64(sumMerge(s_revenue)) AS revenue
            FROM visit_events
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String}) - 1
            GROUP BY property, skey, name
          )
          ANY INNER JOIN (
            SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String}) - 1
            GROUP BY property, skey
            HAVING toDate(start_ts) >= toDate({lookout_first_live:String})
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
        SELECT property, skey, vkey, client_id, start_ts, name, events, revenue
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, any(client_id) AS client_id, name AS name, toUInt64(countMerge(s_events)) AS events, toFloat64(sumMerge(s_revenue)) AS revenue
          FROM visit_events
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p6:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String}) - 1
          GROUP BY property, skey, name
        )
        ANY INNER JOIN (
          SELECT property, cityHash64(session_id) AS skey, toDateTime(minMerge(s_start), 'UTC') AS start_ts
          FROM visits
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day <= toDate(toDateTime({p6:String}, 'UTC'))
          AND day >= toDate({lookout_first_live:String}) - 1
          GROUP BY property, skey
          HAVING toDate(start_ts) >= toDate({lookout_first_live:String})
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
