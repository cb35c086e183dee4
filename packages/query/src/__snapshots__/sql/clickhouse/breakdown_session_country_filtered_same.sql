-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markcountry' OR '1'='1"
-- p5 = "2024-03-26 23:00:00"
-- p6 = "2024-04-04 22:00:00"
SELECT country AS dim, countIf(prev_country < toDateTime({p2:String}, 'UTC')) AS visitors
FROM (
  SELECT skey, vkey, start_ts, country, prev_country
  FROM (
    SELECT property, skey, vkey, client_id, start_ts, end_ts, duration, pageviews, events, bounce, engaged_ms, entry_page, exit_page, hostname, referrer_source, referrer, channel, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, region, city, browser, browser_version, os, os_version, device, screen, prev_country
    FROM visits_done
    WHERE property = {p1:String}
    AND day >= toDate(toDateTime({p5:String}, 'UTC'))
    AND day <= toDate(toDateTime({p6:String}, 'UTC'))
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT property, skey, vkey, client_id, start_ts, end_ts, duration, pageviews, events, bounce, engaged_ms, entry_page, exit_page, hostname, referrer_source, referrer, channel, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, region, city, browser, browser_version, os, os_version, device, screen, prev_country
    FROM (
      SELECT property, skey, vkey, client_id, start_ts, end_ts, duration, pageviews, events, bounce, engaged_ms, entry_page, exit_page, hostname, referrer_source, referrer, channel, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, region, city, browser, browser_version, os, os_version, device, screen, toDateTime(arrayReverseSort(arrayFilter((s, k, x) -> x = country AND (s < start_ts OR (s = start_ts AND k < skey)), a_start_ts, a_skey, a_country))[1], 'UTC') AS prev_country
      FROM (
        SELECT property, vkey, groupArray(is_new) AS a_is_new, groupArray(skey) AS a_skey, groupArray(client_id) AS a_client_id, groupArray(start_ts) AS a_start_ts, groupArray(end_ts) AS a_end_ts, groupArray(duration) AS a_duration, groupArray(pageviews) AS a_pageviews, groupArray(events) AS a_events, groupArray(bounce) AS a_bounce, groupArray(engaged_ms) AS a_engaged_ms, groupArray(entry_page) AS a_entry_page, groupArray(exit_page) AS a_exit_page, groupArray(hostname) AS a_hostname, groupArray(referrer_source) AS a_referrer_source, groupArray(referrer) AS a_referrer, groupArray(channel) AS a_channel, groupArray(utm_source) AS a_utm_source, groupArray(utm_medium) AS a_utm_medium, groupArray(utm_campaign) AS a_utm_campaign, groupArray(utm_term) AS a_utm_term, groupArray(utm_content) AS a_utm_content, groupArray(country) AS a_country, groupArray(region) AS a_region, groupArray(city) AS a_city, groupArray(browser) AS a_browser, groupArray(browser_version) AS a_browser_version, groupArray(os) AS a_os, groupArray(os_version) AS a_os_version, groupArray(device) AS a_device, groupArray(screen) AS a_screen
        FROM (
          SELECT property, skey, vkey, client_id, start_ts, end_ts, duration, pageviews, events, bounce, engaged_ms, entry_page, exit_page, hostname, referrer_source, referrer, channel, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, region, city, browser, browser_version, os, os_version, device, screen, toUInt8(1) AS is_new
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
          UNION ALL SELECT property, skey, vkey, '' AS client_id, start_ts, toDateTime(0, 'UTC') AS end_ts, toFloat64(0) AS duration, toUInt64(0) AS pageviews, toUInt64(0) AS events, toUInt8(0) AS bounce, toFloat64(0) AS engaged_ms, '' AS entry_page, '' AS exit_page, '' AS hostname, '' AS referrer_source, '' AS referrer, '' AS channel, '' AS utm_source, '' AS utm_medium, '' AS utm_campaign, '' AS utm_term, '' AS utm_content, country, '' AS region, '' AS city, '' AS browser, '' AS browser_version, '' AS os, '' AS os_version, '' AS device, '' AS screen, toUInt8(0) AS is_new
          FROM visits_done
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day < toDate({lookout_first_live:String})
          AND batch IN ({lookout_settled:UInt64s})
          AND vkey IN (
            SELECT vkey
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
        )
        GROUP BY property, vkey
      ) ARRAY
      JOIN a_is_new AS is_new, a_skey AS skey, a_client_id AS client_id, a_start_ts AS start_ts, a_end_ts AS end_ts, a_duration AS duration, a_pageviews AS pageviews, a_events AS events, a_bounce AS bounce, a_engaged_ms AS engaged_ms, a_entry_page AS entry_page, a_exit_page AS exit_page, a_hostname AS hostname, a_referrer_source AS referrer_source, a_referrer AS referrer, a_channel AS channel, a_utm_source AS utm_source, a_utm_medium AS utm_medium, a_utm_campaign AS utm_campaign, a_utm_term AS utm_term, a_utm_content AS utm_content, a_country AS country, a_region AS region, a_city AS city, a_browser AS browser, a_browser_version AS browser_version, a_os AS os, a_os_version AS os_version, a_device AS device, a_screen AS screen
      WHERE is_new = 1
    )
  )
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  AND country = {p4:String}
) AS r0
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
