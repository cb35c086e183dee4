-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-26 23:00:00"
-- p5 = "2024-04-04 22:00:00"
SELECT entry_page AS dim, countIf(prev_entry_page < toDateTime({p2:String}, 'UTC')) AS visitors, 100 * (toFloat64(countIf(bounce)) / nullIf(count(*), 0)) AS bounce_rate
FROM (
  SELECT skey, vkey, start_ts, entry_page, bounce, duration, prev_entry_page
  FROM (
    SELECT property, skey, vkey, start_ts, duration, bounce, entry_page, prev_entry_page
    FROM visits_done
    WHERE property = {p1:String}
    AND day >= toDate(toDateTime({p4:String}, 'UTC'))
    AND day <= toDate(toDateTime({p5:String}, 'UTC'))
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT property, skey, vkey, start_ts, duration, bounce, entry_page, prev_entry_page
    FROM (
      SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, r.4 AS duration, r.5 AS bounce, entry_page, toDateTime(p_start, 'UTC') AS prev_entry_page
      FROM (
        SELECT property, vkey, entry_page, arraySort(groupArray((start_ts, skey, is_new, duration, bounce))) AS a_rows
        FROM (
          SELECT property, skey, vkey, start_ts, duration, bounce, entry_page, toUInt8(1) AS is_new
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, if(sumMerge(s_pageviews) > 0, argMinMerge(s_entry), '') AS entry_page
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
          UNION ALL SELECT property, skey, vkey, start_ts, toFloat64(0) AS duration, toUInt8(0) AS bounce, entry_page, toUInt8(0) AS is_new
          FROM visits_done
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p4:String}, 'UTC'))
          AND day < toDate({lookout_first_live:String})
          AND batch IN ({lookout_settled:UInt64s})
          AND vkey IN (
            SELECT vkey
            FROM (
              SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
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
        )
        GROUP BY property, vkey, entry_page
      ) ARRAY
      JOIN a_rows AS r, arrayPushFront(arrayPopBack(arrayMap(x -> x.1, a_rows)), toDateTime(0, 'UTC')) AS p_start
      WHERE r.3 = 1
    )
  )
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
) AS r0
GROUP BY dim
ORDER BY bounce_rate ASC, dim ASC
LIMIT 0, 100
