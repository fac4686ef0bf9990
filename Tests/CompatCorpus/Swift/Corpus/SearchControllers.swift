import UIKit

// Seed 002 (en): the two screens MainTransitioningDelegate animates between. In the seed's app
// the search box is an outlet wired in Interface Builder; here each controller finds it by its
// accessibility identifier when its view loads, as UI-tested code often does.

class HomeController: UIViewController {
    var searchView: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()
        searchView = view.subviews.first { $0.accessibilityIdentifier == "searchView" }
    }
}

class CompanySearchController: UIViewController {
    var searchView: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()
        searchView = view.subviews.first { $0.accessibilityIdentifier == "searchView" }
    }
}
