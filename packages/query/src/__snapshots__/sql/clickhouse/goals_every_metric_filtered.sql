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
    SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, min(e_ts) AS start_ts, max(e_ts) AS end_ts, (max(e_tms) - min(e_tms)) / 1000 AS duration, countIf(e_name = 'pageview') AS pageviews, countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) AS events, (countIf(e_name = 'pageview') = 1 AND countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) = 0) AS bounce, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms, argMinIf(e_path, e_tms, e_name = 'pageview') AS entry_page, argMaxIf(e_path, e_tms, e_name = 'pageview') AS exit_page, argMin(e_hostname, e_tms) AS hostname, argMin(e_referrer_source, e_tms) AS referrer_source, argMin(e_referrer, e_tms) AS referrer, argMin(e_channel, e_tms) AS channel, argMin(e_utm_source, e_tms) AS utm_source, argMin(e_utm_medium, e_tms) AS utm_medium, argMin(e_utm_campaign, e_tms) AS utm_campaign, argMin(e_utm_term, e_tms) AS utm_term, argMin(e_utm_content, e_tms) AS utm_content, argMin(e_country, e_tms) AS country, argMin(e_region, e_tms) AS region, argMin(e_city, e_tms) AS city, argMin(e_browser, e_tms) AS browser, argMin(e_browser_version, e_tms) AS browser_version, argMin(e_os, e_tms) AS os, argMin(e_os_version, e_tms) AS os_version, argMin(e_device, e_tms) AS device, argMin(e_screen, e_tms) AS screen
    FROM (
      SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p6:String}, 'UTC')
      AND ts < toDateTime({p7:String}, 'UTC')
    )
    GROUP BY e_session_id
  )
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
  AND country = {p10:String}
  AND skey IN (
    SELECT skey
    FROM (
      SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_path AS path, countIf(e_name = 'pageview') AS pageviews, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id, e_path
        HAVING pageviews > 0
      )
      ANY INNER JOIN (
        SELECT e_session_id AS skey, min(e_ts) AS start_ts
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
    AND (positionCaseInsensitiveUTF8(path, {p8:String}) > 0)
  )
  AND skey NOT IN (
    SELECT skey
    FROM (
      SELECT property, skey, vkey, start_ts, name, events, revenue
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_name AS name, count() AS events, sum(e_revenue) AS revenue
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        WHERE e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
        GROUP BY e_session_id, e_name
      )
      ANY INNER JOIN (
        SELECT e_session_id AS skey, min(e_ts) AS start_ts
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
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
      SELECT property, skey, vkey, start_ts, name, events, revenue
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_name AS name, count() AS events, sum(e_revenue) AS revenue
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        WHERE e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
        GROUP BY e_session_id, e_name
      )
      ANY INNER JOIN (
        SELECT e_session_id AS skey, min(e_ts) AS start_ts
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
    AND name = {p3:String}
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
        FROM (
          SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_path AS path, countIf(e_name = 'pageview') AS pageviews, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id, e_path
          HAVING pageviews > 0
        )
        ANY INNER JOIN (
          SELECT e_session_id AS skey, min(e_ts) AS start_ts
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id
        ) USING (skey)
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND (positionCaseInsensitiveUTF8(path, {p8:String}) > 0)
    )
    AND skey NOT IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, name, events, revenue
        FROM (
          SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_name AS name, count() AS events, sum(e_revenue) AS revenue
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          WHERE e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
          GROUP BY e_session_id, e_name
        )
        ANY INNER JOIN (
          SELECT e_session_id AS skey, min(e_ts) AS start_ts
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id
        ) USING (skey)
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND name = {p9:String}
    )
    AND skey IN (
      SELECT skey
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, min(e_ts) AS start_ts, max(e_ts) AS end_ts, (max(e_tms) - min(e_tms)) / 1000 AS duration, countIf(e_name = 'pageview') AS pageviews, countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) AS events, (countIf(e_name = 'pageview') = 1 AND countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) = 0) AS bounce, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms, argMinIf(e_path, e_tms, e_name = 'pageview') AS entry_page, argMaxIf(e_path, e_tms, e_name = 'pageview') AS exit_page, argMin(e_hostname, e_tms) AS hostname, argMin(e_referrer_source, e_tms) AS referrer_source, argMin(e_referrer, e_tms) AS referrer, argMin(e_channel, e_tms) AS channel, argMin(e_utm_source, e_tms) AS utm_source, argMin(e_utm_medium, e_tms) AS utm_medium, argMin(e_utm_campaign, e_tms) AS utm_campaign, argMin(e_utm_term, e_tms) AS utm_term, argMin(e_utm_content, e_tms) AS utm_content, argMin(e_country, e_tms) AS country, argMin(e_region, e_tms) AS region, argMin(e_city, e_tms) AS city, argMin(e_browser, e_tms) AS browser, argMin(e_browser_version, e_tms) AS browser_version, argMin(e_os, e_tms) AS os, argMin(e_os_version, e_tms) AS os_version, argMin(e_device, e_tms) AS device, argMin(e_screen, e_tms) AS screen
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id
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
      SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_path AS path, countIf(e_name = 'pageview') AS pageviews, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id, e_path
        HAVING pageviews > 0
      )
      ANY INNER JOIN (
        SELECT e_session_id AS skey, min(e_ts) AS start_ts
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
    AND path = {p12:String}
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
        FROM (
          SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_path AS path, countIf(e_name = 'pageview') AS pageviews, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id, e_path
          HAVING pageviews > 0
        )
        ANY INNER JOIN (
          SELECT e_session_id AS skey, min(e_ts) AS start_ts
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id
        ) USING (skey)
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND (positionCaseInsensitiveUTF8(path, {p8:String}) > 0)
    )
    AND skey NOT IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, name, events, revenue
        FROM (
          SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_name AS name, count() AS events, sum(e_revenue) AS revenue
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          WHERE e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
          GROUP BY e_session_id, e_name
        )
        ANY INNER JOIN (
          SELECT e_session_id AS skey, min(e_ts) AS start_ts
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id
        ) USING (skey)
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND name = {p9:String}
    )
    AND skey IN (
      SELECT skey
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, min(e_ts) AS start_ts, max(e_ts) AS end_ts, (max(e_tms) - min(e_tms)) / 1000 AS duration, countIf(e_name = 'pageview') AS pageviews, countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) AS events, (countIf(e_name = 'pageview') = 1 AND countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) = 0) AS bounce, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms, argMinIf(e_path, e_tms, e_name = 'pageview') AS entry_page, argMaxIf(e_path, e_tms, e_name = 'pageview') AS exit_page, argMin(e_hostname, e_tms) AS hostname, argMin(e_referrer_source, e_tms) AS referrer_source, argMin(e_referrer, e_tms) AS referrer, argMin(e_channel, e_tms) AS channel, argMin(e_utm_source, e_tms) AS utm_source, argMin(e_utm_medium, e_tms) AS utm_medium, argMin(e_utm_campaign, e_tms) AS utm_campaign, argMin(e_utm_term, e_tms) AS utm_term, argMin(e_utm_content, e_tms) AS utm_content, argMin(e_country, e_tms) AS country, argMin(e_region, e_tms) AS region, argMin(e_city, e_tms) AS city, argMin(e_browser, e_tms) AS browser, argMin(e_browser_version, e_tms) AS browser_version, argMin(e_os, e_tms) AS os, argMin(e_os_version, e_tms) AS os_version, argMin(e_device, e_tms) AS device, argMin(e_screen, e_tms) AS screen
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id
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
      SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_path AS path, countIf(e_name = 'pageview') AS pageviews, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id, e_path
        HAVING pageviews > 0
      )
      ANY INNER JOIN (
        SELECT e_session_id AS skey, min(e_ts) AS start_ts
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
    AND match(path, {p14:String})
    AND skey IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms
        FROM (
          SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_path AS path, countIf(e_name = 'pageview') AS pageviews, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id, e_path
          HAVING pageviews > 0
        )
        ANY INNER JOIN (
          SELECT e_session_id AS skey, min(e_ts) AS start_ts
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id
        ) USING (skey)
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND (positionCaseInsensitiveUTF8(path, {p8:String}) > 0)
    )
    AND skey NOT IN (
      SELECT skey
      FROM (
        SELECT property, skey, vkey, start_ts, name, events, revenue
        FROM (
          SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_name AS name, count() AS events, sum(e_revenue) AS revenue
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          WHERE e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
          GROUP BY e_session_id, e_name
        )
        ANY INNER JOIN (
          SELECT e_session_id AS skey, min(e_ts) AS start_ts
          FROM (
            SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p6:String}, 'UTC')
            AND ts < toDateTime({p7:String}, 'UTC')
          )
          GROUP BY e_session_id
        ) USING (skey)
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND name = {p9:String}
    )
    AND skey IN (
      SELECT skey
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, min(e_ts) AS start_ts, max(e_ts) AS end_ts, (max(e_tms) - min(e_tms)) / 1000 AS duration, countIf(e_name = 'pageview') AS pageviews, countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) AS events, (countIf(e_name = 'pageview') = 1 AND countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) = 0) AS bounce, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms, argMinIf(e_path, e_tms, e_name = 'pageview') AS entry_page, argMaxIf(e_path, e_tms, e_name = 'pageview') AS exit_page, argMin(e_hostname, e_tms) AS hostname, argMin(e_referrer_source, e_tms) AS referrer_source, argMin(e_referrer, e_tms) AS referrer, argMin(e_channel, e_tms) AS channel, argMin(e_utm_source, e_tms) AS utm_source, argMin(e_utm_medium, e_tms) AS utm_medium, argMin(e_utm_campaign, e_tms) AS utm_campaign, argMin(e_utm_term, e_tms) AS utm_term, argMin(e_utm_content, e_tms) AS utm_content, argMin(e_country, e_tms) AS country, argMin(e_region, e_tms) AS region, argMin(e_city, e_tms) AS city, argMin(e_browser, e_tms) AS browser, argMin(e_browser_version, e_tms) AS browser_version, argMin(e_os, e_tms) AS os, argMin(e_os_version, e_tms) AS os_version, argMin(e_device, e_tms) AS device, argMin(e_screen, e_tms) AS screen
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p6:String}, 'UTC')
          AND ts < toDateTime({p7:String}, 'UTC')
        )
        GROUP BY e_session_id
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
      AND country = {p10:String}
    )
  ) AS r2
)
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
