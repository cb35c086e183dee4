-- p1 = "Qx7MarkProp"
-- p2 = "Qx7MarkSigned up' OR '1'='1"
-- p3 = "Qx7Marksignup' OR '1'='1"
-- p4 = "2024-03-27 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-03-26 23:00:00"
-- p7 = "2024-04-04 22:00:00"
-- p8 = "Qx7Markdocs' OR '1'='1"
-- p9 = "Qx7Markrefund' OR '1'='1"
-- p10 = "Qx7MarkDE' OR '1'='1"
-- p11 = "Qx7MarkPricing' OR '1'='1"
-- p12 = "/Qx7Markpricing'OR'1'='1"
-- p13 = "Qx7MarkBlog' OR '1'='1"
-- p14 = "^/Qx7Markblog/[^/]*/c\\.\\(x\\)\\+/.*$"
SELECT dim, g_visitors AS visitors, g_events AS events, g_visitors AS conversions, 100 * (toFloat64(g_visitors) / nullIf((
  SELECT uniqExact(vkey)
  FROM (
    SELECT property, skey, vkey, client_id, start_ts, end_ts, duration, pageviews, events, bounce, engaged_ms, entry_page, exit_page, hostname, referrer_source, referrer, channel, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, region, city, browser, browser_version, os, os_version, device, screen
    FROM visits_done
    WHERE property = {p1:String}
    AND day >= toDate(toDateTime({p6:String}, 'UTC'))
    AND day <= toDate(toDateTime({p7:String}, 'UTC'))
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT property, skey, vkey, client_id, start_ts, end_ts, duration, pageviews, events, bounce, engaged_ms, entry_page, exit_page, hostname, referrer_source, referrer, channel, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, region, city, browser, browser_version, os, os_version, device, screen
    FROM (
      SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, any(client_id) AS client_id, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toDateTime(maxMerge(s_end), 'UTC') AS end_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt64(sumMerge(s_events)) AS events, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms, if(sumMerge(s_pageviews) > 0, argMinMerge(s_entry), '') AS entry_page, if(sumMerge(s_pageviews) > 0, argMaxMerge(s_exit), '') AS exit_page, argMinMerge(s_hostname) AS hostname, argMinMerge(s_referrer_source) AS referrer_source, argMinMerge(s_referrer) AS referrer, argMinMerge(s_channel) AS channel, argMinMerge(s_utm_source) AS utm_source, argMinMerge(s_utm_medium) AS utm_medium, argMinMerge(s_utm_campaign) AS utm_campaign, argMinMerge(s_utm_term) AS utm_term, argMinMerge(s_utm_content) AS utm_content, argMinMerge(s_country) AS country, argMinMerge(s_region) AS region, argMinMerge(s_city) AS city, argMinMerge(s_browser) AS browser, argMinMerge(s_browser_version) AS browser_version, argMinMerge(s_os) AS os, argMinMerge(s_os_version) AS os_version, argMinMerge(s_device) AS device, argMinMerge(s_screen) AS screen
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
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
  AND country = {p10:String}
  AND skey IN (
    SELECT skey
    FROM (
      SELECT property, skey, vkey, start_ts, path
      FROM visit_pages_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p6:String}, 'UTC'))
      AND day <= toDate(toDateTime({p7:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, path
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
    AND (positionCaseInsensitiveUTF8(path, {p8:String}) > 0)
  )
  AND skey NOT IN (
    SELECT skey
    FROM (
      SELECT property, skey, vkey, start_ts, name
      FROM visit_events_done
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p6:String}, 'UTC'))
      AND day <= toDate(toDateTime({p7:String}, 'UTC'))
      AND batch IN ({lookout_settled:UInt64s})
      UNION ALL SELECT property, skey, vkey, start_ts, name
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
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
    AND name = {p9:String}
  )
), 0)) AS conversion_rate
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
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, path
        FROM visit_pages_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, path
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
      AND (positionCaseInsensitiveUTF8(path, {p8:String}) > 0)
    )
    AND skey NOT IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, name
        FROM visit_events_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, name
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
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND name = {p9:String}
    )
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, country
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, country
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews, argMinMerge(s_country) AS country
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
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND country = {p10:String}
    )
  ) AS r0
  UNION ALL SELECT {p11:String} AS dim, uniqExact(vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
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
    AND path = {p12:String}
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, path
        FROM visit_pages_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, path
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
      AND (positionCaseInsensitiveUTF8(path, {p8:String}) > 0)
    )
    AND skey NOT IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, name
        FROM visit_events_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, name
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
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND name = {p9:String}
    )
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, country
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, country
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews, argMinMerge(s_country) AS country
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
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND country = {p10:String}
    )
  ) AS r1
  UNION ALL SELECT {p13:String} AS dim, uniqExact(vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
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
    AND match(path, {p14:String})
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, path
        FROM visit_pages_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, path
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
      AND (positionCaseInsensitiveUTF8(path, {p8:String}) > 0)
    )
    AND skey NOT IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, name
        FROM visit_events_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, name
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
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND name = {p9:String}
    )
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, country
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p6:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, country
        FROM (
          SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews, argMinMerge(s_country) AS country
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
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND country = {p10:String}
    )
  ) AS r2
)
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
