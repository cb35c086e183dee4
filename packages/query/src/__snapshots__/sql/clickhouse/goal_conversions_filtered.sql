-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Marksearch' OR '1'='1"
-- p5 = "2024-03-26 23:00:00"
-- p6 = "2024-04-04 22:00:00"
-- p7 = "Qx7Markpurchase' OR '1'='1"
SELECT uniqExact(vkey) AS visitors, uniqExactIf(vkey, coalesce(cv_converted, 0) = 1) AS conversions, 100 * (toFloat64(uniqExactIf(vkey, coalesce(cv_converted, 0) = 1)) / nullIf(uniqExact(vkey), 0)) AS conversion_rate
FROM (
  SELECT skey, vkey, start_ts, cv_converted
  FROM (
    SELECT skey, vkey, start_ts
    FROM (
      SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, min(e_ts) AS start_ts, max(e_ts) AS end_ts, (max(e_tms) - min(e_tms)) / 1000 AS duration, countIf(e_name = 'pageview') AS pageviews, countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) AS events, (countIf(e_name = 'pageview') = 1 AND countIf(e_name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')) = 0) AS bounce, sumIf(e_engaged_ms, e_name = 'engagement') AS engaged_ms, argMinIf(e_path, e_tms, e_name = 'pageview') AS entry_page, argMaxIf(e_path, e_tms, e_name = 'pageview') AS exit_page, argMin(e_hostname, e_tms) AS hostname, argMin(e_referrer_source, e_tms) AS referrer_source, argMin(e_referrer, e_tms) AS referrer, argMin(e_channel, e_tms) AS channel, argMin(e_utm_source, e_tms) AS utm_source, argMin(e_utm_medium, e_tms) AS utm_medium, argMin(e_utm_campaign, e_tms) AS utm_campaign, argMin(e_utm_term, e_tms) AS utm_term, argMin(e_utm_content, e_tms) AS utm_content, argMin(e_country, e_tms) AS country, argMin(e_region, e_tms) AS region, argMin(e_city, e_tms) AS city, argMin(e_browser, e_tms) AS browser, argMin(e_browser_version, e_tms) AS browser_version, argMin(e_os, e_tms) AS os, argMin(e_os_version, e_tms) AS os_version, argMin(e_device, e_tms) AS device, argMin(e_screen, e_tms) AS screen
      FROM (
        SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
        FROM events
        WHERE property = {p1:String}
        AND ts >= toDateTime({p5:String}, 'UTC')
        AND ts < toDateTime({p6:String}, 'UTC')
      )
      GROUP BY e_session_id
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
    AND channel = {p4:String}
  ) AS r0
  ANY LEFT JOIN (
    SELECT skey, 1 AS cv_converted
    FROM (
      SELECT property, skey, vkey, start_ts, name, events, revenue
      FROM (
        SELECT any(e_property) AS property, e_session_id AS skey, any(e_visitor_id) AS vkey, e_name AS name, count() AS events, sum(e_revenue) AS revenue
        FROM (
          SELECT property AS e_property, session_id AS e_session_id, visitor_id AS e_visitor_id, ts AS e_ts, name AS e_name, path AS e_path, engaged_ms AS e_engaged_ms, revenue AS e_revenue, hostname AS e_hostname, referrer_source AS e_referrer_source, referrer AS e_referrer, channel AS e_channel, utm_source AS e_utm_source, utm_medium AS e_utm_medium, utm_campaign AS e_utm_campaign, utm_term AS e_utm_term, utm_content AS e_utm_content, country AS e_country, region AS e_region, city AS e_city, browser AS e_browser, browser_version AS e_browser_version, os AS e_os, os_version AS e_os_version, device AS e_device, screen AS e_screen, toUInt64(ts) * 1000 + ts_ms AS e_tms
          FROM events
          WHERE property = {p1:String}
          AND ts >= toDateTime({p5:String}, 'UTC')
          AND ts < toDateTime({p6:String}, 'UTC')
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
          AND ts >= toDateTime({p5:String}, 'UTC')
          AND ts < toDateTime({p6:String}, 'UTC')
        )
        GROUP BY e_session_id
      ) USING (skey)
    )
    WHERE property = {p1:String}
    AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
    AND name = {p7:String}
    GROUP BY skey
  ) AS r1 USING (skey)
)
LIMIT 0, 1
