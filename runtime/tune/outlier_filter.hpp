// Outlier rejection of a candidate's full sample set by the modified z-score
// (Iglewicz and Hoaglin, "How to Detect and Handle Outliers", ASQC 1993):
//   M_i = 0.6745 (x_i - median) / MAD,   MAD = median |x_i - median|,
// 0.6745 being the 0.75 quantile of the standard normal, so that M_i matches
// an ordinary z-score for normal data. Samples with |M_i| > threshold are
// dropped and the rest are averaged. The search uses threshold 2, the value
// the seed (MIOpen's GenericSearch study) names.
#pragma once
#include <span>
#include <vector>

namespace cdnajit::tune {

struct FilteredSamples {
  std::vector<double> kept, rejected;
  double median = 0, mad = 0;
  double mean_kept = 0;  // the candidate's time
};

// When MAD is 0 (more than half the samples are identical, e.g. a
// deterministic source) every sample different from the median has an
// infinite score and is rejected; identical samples are all kept.
// Throws cdnajit::Error for an empty sample set or a threshold below 1.
FilteredSamples reject_outliers(std::span<const double> samples, double threshold = 2.0);

double median_of(std::vector<double> v);  // v non-empty

}  // namespace cdnajit::tune
