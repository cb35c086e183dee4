-- p1 = "Qx7MarkProp"
-- p2 = "Europe/Berlin"
-- p3 = "any"
-- p4 = "2024-04-01 00:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-03-31 00:00:00"
-- p7 = "2024-04-04 22:00:00"
-- p8 = "2024-01-03 23:00:00"
-- p9 = "2024-01-04 23:00:00"
-- p10 = "2024-01-04 11:30:00"
-- p12 = "2024-01-05 11:30:00"
-- p14 = "2023-10-06 22:00:00"
-- lookout_first_live = "2024-04-02"
-- lookout_settled = ["478367","478368","478369","478370","478371","478372","478373","478374","478375","478376","478377","478378","478379","478380","478381","478382","478383","478384","478385","478386","478387","478388","478389","478390","478391","478392","478393","478394","478395","478396","478397","478398","478399","478400","478401","478402","478403","478404","478405","478406","478407","478408","478409","478410","478411","478412","478413","478414","478415","478416","478417","478418","478419","478420","478421","478422","478423","478424","478425","478426","478427","478428","478429","478430","478431","478432","478433","478434","478435","478436","478437","478438","478439","478440","478441","478442","478443","478444","478445","478446","478447","478448","478449","478450","478451","478452","478453","478454","478455","478456","478457","478458","478459","478460","478461","478462","478463","478464","478465","478466","478467","478468","478469","478470","478471","478472","478473","478474","478475","478476","478477","478478","478479","478480","478481","478482","478483","478484","478485","478486","478487","478488","478489","478490","478491","478492","478493","478494","478495","478496","478497","478498","478499","478500","478501","478502","478503","478504","478505","478506","478507","478508","478509","478510","478511","478512","478513","478514","478515","478516","478517","478518","478519","478520","478521","478522","478523","478524","478525","478526","478527","478528","478529","478530","478531","478532","478533","478534","478535","478536","478537","478538","478539","478540","478541","478542","478543","478544","478545","478546","478547","478548","478549","478550","478551","478552","478553","478554","478555","478556","478557","478558","478559","478560","478561","478562","478563","478564","478565","478566"]
SELECT *
FROM (
  SELECT 0 AS period, sum(i_visitors) AS visitors, sum(i_visits) AS visits, sum(i_pageviews) AS pageviews, (toFloat64(sum(i_pageviews)) / nullIf(sum(i_visits), 0)) AS views_per_visit, 100 * (toFloat64(sum(i_bounces)) / nullIf(sum(i_visits), 0)) AS bounce_rate, (toFloat64(sum(i_durationSum)) / nullIf(sum(i_visits), 0)) AS visit_duration
  FROM (
    SELECT sumIf(visits, prev_lday < 19727) AS i_visitors, sum(visits) AS i_visits, sum(pageviews) AS i_pageviews, sum(bounces) AS i_bounces, sum(duration) AS i_durationSum
    FROM visit_days
    WHERE property = {p1:String}
    AND tz = {p2:String}
    AND dimension = {p3:String}
    AND lday >= 19727
    AND lday < 19815
    AND batch IN (478478, 478479, 478480, 478481, 478482, 478483, 478484, 478485, 478486, 478487, 478488, 478489, 478490, 478491, 478492, 478493, 478494, 478495, 478496, 478497, 478498, 478499, 478500, 478501, 478502, 478503, 478504, 478505, 478506, 478507, 478508, 478509, 478510, 478511, 478512, 478513, 478514, 478515, 478516, 478517, 478518, 478519, 478520, 478521, 478522, 478523, 478524, 478525, 478526, 478527, 478528, 478529, 478530, 478531, 478532, 478533, 478534, 478535, 478536, 478537, 478538, 478539, 478540, 478541, 478542, 478543, 478544, 478545, 478546, 478547, 478548, 478549, 478550, 478551, 478552, 478553, 478554, 478555, 478556, 478557, 478558, 478559, 478560, 478561, 478562, 478563, 478564, 478565, 0)
    UNION ALL SELECT countIf(prev_any < toDateTime({p9:String}, 'UTC')) AS i_visitors, count(*) AS i_visits, sum(s_pageviews) AS i_pageviews, countIf(bounce) AS i_bounces, sum(duration) AS i_durationSum
    FROM (
      SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
      FROM (
        SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p4:String}, 'UTC'))
        AND day <= toDate(toDateTime({p7:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
        UNION ALL SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
        FROM (
          SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, r.4 AS duration, r.5 AS pageviews, r.6 AS bounce, r.7 AS engaged_ms, toDateTime(p_start, 'UTC') AS prev_any
          FROM (
            SELECT property, vkey, arraySort(groupArray((start_ts, skey, is_new, duration, pageviews, bounce, engaged_ms))) AS a_rows
            FROM (
              SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, toUInt8(1) AS is_new
              FROM (
                SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toFloat64((maxMerge(s_end_tms) - minMerge(s_start_tms)) / 1000) AS duration, toUInt64(sumMerge(s_pageviews)) AS pageviews, toUInt8((sumMerge(s_pageviews) = 1 AND sumMerge(s_events) = 0)) AS bounce, toFloat64(sumMerge(s_engaged_ms)) AS engaged_ms
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
              UNION ALL SELECT property, skey, vkey, start_ts, toFloat64(0) AS duration, toUInt64(0) AS pageviews, toUInt8(0) AS bounce, toFloat64(0) AS engaged_ms, toUInt8(0) AS is_new
              FROM visits_done
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p8:String}, 'UTC'))
              AND day < toDate({lookout_first_live:String})
              AND batch IN ({lookout_settled:UInt64s})
              AND vkey IN (
                SELECT vkey
                FROM (
                  SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
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
            )
            GROUP BY property, vkey
          ) ARRAY
          JOIN a_rows AS r, arrayPushFront(arrayPopBack(arrayMap(x -> x.1, a_rows)), toDateTime(0, 'UTC')) AS p_start
          WHERE r.3 = 1
        )
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p4:String}, 'UTC') AND start_ts < toDateTime({p5:String}, 'UTC'))
    ) AS r0
  )
  UNION ALL SELECT 1 AS period, sum(i_visitors) AS visitors, sum(i_visits) AS visits, sum(i_pageviews) AS pageviews, (toFloat64(sum(i_pageviews)) / nullIf(sum(i_visits), 0)) AS views_per_visit, 100 * (toFloat64(sum(i_bounces)) / nullIf(sum(i_visits), 0)) AS bounce_rate, (toFloat64(sum(i_durationSum)) / nullIf(sum(i_visits), 0)) AS visit_duration
  FROM (
    SELECT sumIf(visits, prev_lday < 19637) AS i_visitors, sum(visits) AS i_visits, sum(pageviews) AS i_pageviews, sum(bounces) AS i_bounces, sum(duration) AS i_durationSum
    FROM visit_days
    WHERE property = {p1:String}
    AND tz = {p2:String}
    AND dimension = {p3:String}
    AND lday >= 19637
    AND lday < 19726
    AND batch IN (478388, 478389, 478390, 478391, 478392, 478393, 478394, 478395, 478396, 478397, 478398, 478399, 478400, 478401, 478402, 478403, 478404, 478405, 478406, 478407, 478408, 478409, 478410, 478411, 478412, 478413, 478414, 478415, 478416, 478417, 478418, 478419, 478420, 478421, 478422, 478423, 478424, 478425, 478426, 478427, 478428, 478429, 478430, 478431, 478432, 478433, 478434, 478435, 478436, 478437, 478438, 478439, 478440, 478441, 478442, 478443, 478444, 478445, 478446, 478447, 478448, 478449, 478450, 478451, 478452, 478453, 478454, 478455, 478456, 478457, 478458, 478459, 478460, 478461, 478462, 478463, 478464, 478465, 478466, 478467, 478468, 478469, 478470, 478471, 478472, 478473, 478474, 478475, 478476, 478477, 0)
    UNION ALL SELECT countIf(prev_any < toDateTime({p14:String}, 'UTC')) AS i_visitors, count(*) AS i_visits, sum(s_pageviews) AS i_pageviews, countIf(bounce) AS i_bounces, sum(duration) AS i_durationSum
    FROM (
      SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
      FROM (
        SELECT property, skey, vkey, start_ts, duration, pageviews, bounce, engaged_ms, prev_any
        FROM visits_done
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p8:String}, 'UTC'))
        AND day <= toDate(toDateTime({p12:String}, 'UTC'))
        AND batch IN ({lookout_settled:UInt64s})
      )
      WHERE property = {p1:String}
      AND (start_ts >= toDateTime({p8:String}, 'UTC') AND start_ts < toDateTime({p10:String}, 'UTC'))
    ) AS r0
  )
)
ORDER BY period
LIMIT 0, 2
